import type { Kysely } from 'kysely';
import type { MoneyOutcome } from '#shared/contract/account';
import type { DB } from '../db/schema';

/**
 * What became of one of the caller's money calls (the app asks after a lost answer): the answer
 * the gateway (lib/route.ts) kept with the caller's Idempotency-Key, or `found: false`.
 */
export async function moneyOutcome(db: Kysely<DB>, userId: number, key: string): Promise<MoneyOutcome> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['status_code', 'response'])
    .where('user_id', '=', userId)
    .where('key', '=', key)
    // status 0 is a request still in its transaction (never visible once committed).
    .where('status_code', '>', 0)
    .executeTakeFirst();
  if (!row) return { found: false as const };
  const answer = JSON.parse(row.response) as { msg: 'ok' | 'no'; data: unknown };
  return { found: true as const, status: row.status_code, answer };
}
