import type { Kysely } from 'kysely';
import type { Onboarding } from '#shared/contract/account';
import { KYC_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import { ownerHasFactor } from '../factors/index';
import { userOwner } from './two-factor';

/**
 * A new account's checklist: each step read from the state it is about, so the
 * checklist ticks itself — the real-name status, a transaction password, a bank card, a recharge
 * posted to the ledger, an instrument in any watchlist.
 */
export async function onboarding(db: Kysely<DB>, userId: number): Promise<Onboarding> {
  const has = async (q: Promise<unknown>) => (await q) !== undefined;
  const [kyc, account, card, funded, watching, secured] = await Promise.all([
    db.selectFrom('kyc').select('status').where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('users').select('fund_password_hash').where('id', '=', userId).executeTakeFirstOrThrow(),
    has(db.selectFrom('bank_cards').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst()),
    has(
      db
        .selectFrom('ledger')
        .select('id')
        .where('user_id', '=', userId)
        .where('reason', '=', 'recharge')
        .limit(1)
        .executeTakeFirst(),
    ),
    has(
      db
        .selectFrom('watchlist_items')
        .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.list_id')
        .select('watchlists.id')
        .where('watchlists.user_id', '=', userId)
        .limit(1)
        .executeTakeFirst(),
    ),
    ownerHasFactor(db, userOwner(userId)),
  ]);
  const identity = (kyc?.status ?? KYC_STATUS.none) as Onboarding['identity'];
  const steps = {
    identity,
    trade_password: account.fund_password_hash !== null,
    bank_card: card,
    funded,
    watchlist: watching,
  };
  return {
    ...steps,
    second_factor: secured,
    done: identity === KYC_STATUS.approved && steps.trade_password && card && funded && watching,
  };
}
