import type { Kysely } from 'kysely';
import { KYC_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../lib/errors';

/**
 * Identity before money: with REQUIRE_KYC (on in production) money may come in —
 * a recharge, a loan — and buy orders (stock, forex, futures, treasury, block/QIP, IPO
 * applications, funds) may be placed only by an account whose real-name verification is
 * approved; anything else is refused with `errors.kycRequired` (403), which the app explains with
 * a link to Real-name. Selling, cancelling and withdrawing what is already there are never
 * refused by it: money is never trapped.
 */
export async function requireVerified(deps: Deps, db: Kysely<DB>, userId: number): Promise<void> {
  if (!deps.config.requireKyc) return;
  const row = await db.selectFrom('kyc').select('status').where('user_id', '=', userId).executeTakeFirst();
  if (row?.status !== KYC_STATUS.approved) throw new ApiError('errors.kycRequired', 403);
}
