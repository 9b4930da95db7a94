import type { Kysely } from 'kysely';
import type { CustomerName } from '#shared/backoffice';
import { KYC_STATUS } from '#shared/status';
import type { DB } from '../db/schema';

/**
 * Who a customer is, as staff call them: the name they gave for real-name verification (verified
 * once approved), else the holder of their first bank card (never verified), else nobody — then
 * staff see the phone. Every list of the back office names customers through here, so a queue, a
 * payout and the customer page agree.
 */
export async function namesOf(
  db: Kysely<DB>,
  userIds: readonly number[],
): Promise<Map<number, CustomerName>> {
  const ids = [...new Set(userIds)];
  const out = new Map<number, CustomerName>();
  if (ids.length === 0) return out;
  const [kyc, cards] = await Promise.all([
    db.selectFrom('kyc').select(['user_id', 'real_name', 'status']).where('user_id', 'in', ids).execute(),
    db
      .selectFrom('bank_cards')
      .select(['user_id', 'bank_user'])
      .where('user_id', 'in', ids)
      .orderBy('id')
      .execute(),
  ]);
  for (const id of ids) out.set(id, { name: null, nameFrom: null, kycStatus: KYC_STATUS.none });
  for (const c of cards) {
    const n = out.get(c.user_id)!;
    if (n.name === null && c.bank_user.trim())
      Object.assign(n, { name: c.bank_user.trim(), nameFrom: 'card' });
  }
  for (const k of kyc) {
    const n = out.get(k.user_id)!;
    n.kycStatus = k.status;
    if (k.real_name.trim()) Object.assign(n, { name: k.real_name.trim(), nameFrom: 'kyc' });
  }
  return out;
}

/** One customer's name (`namesOf` for one). */
export async function nameOf(db: Kysely<DB>, userId: number): Promise<CustomerName> {
  return (await namesOf(db, [userId])).get(userId)!;
}
