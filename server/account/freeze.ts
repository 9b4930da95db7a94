import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from '../lib/errors';

/**
 * A frozen account (users.frozen_at, set and cleared only by two members of staff:
 * server/account/controls.ts). While frozen, every money call of the contract (`money`
 * entries: orders placed, modified or cancelled, IPO and fund calls, recharge, withdraw, loans) and
 * every change of where money goes (`tradePassword` entries: bank cards) is refused with
 * `errors.accountFrozen` (403) before its input is used — nothing moves, nothing is recorded under
 * its Idempotency-Key. Reading stays open: the customer signs in, sees their balance, holdings and
 * the notice that says why, and can write to support. Neither the rail's job (wallet/jobs.ts) nor
 * staff (wallet/payouts.ts: pay, approve, release) pay out their withdrawals in progress until
 * they are unfrozen; staff may still reject (refund) one. Orders already resting are left
 * as they were: freezing stops the customer, not the market.
 *
 * The check is a plain read before the call's transaction, taking no lock: a money call already
 * past it when the freeze commits finishes, as a request already on its way finishes when its
 * session ends; every call after is refused. Locking the account's row here would take it before
 * the order and position rows a call locks after, the reverse of the match job's order, and so
 * could deadlock the two.
 */
export async function refuseFrozen(_deps: Deps, db: Kysely<DB>, userId: number): Promise<void> {
  const row = await db.selectFrom('users').select('frozen_at').where('id', '=', userId).executeTakeFirst();
  if (row?.frozen_at != null) throw new ApiError('errors.accountFrozen', 403);
}
