import type { FastifyInstance } from 'fastify';
import type { Onboarding } from '#shared/contract/account';
import { contract } from '#shared/contract/index';
import { fromMinor } from '#shared/money';
import { totalAssets } from '../account/assets';
import { register } from '../account/registration';
import { forgetPassword, login, prepareSignIn } from '../account/sign-in';
import { hotReads } from '../db/hot';
import { sessionCache, sha256, tokenOf } from '../lib/auth';
import { route } from '../lib/route';
import { ANSWERS } from './answers';

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const { db } = deps.database;
  prepareSignIn(deps);

  route(app, contract.register, ({ input, req }) => register(deps, input, req.ip));

  route(app, contract.login, ({ input, req }) => login(deps, input, req.ip));

  route(app, contract.forget, ({ input, req }) => forgetPassword(deps, input, req.ip));

  /** What became of one of the caller's money calls (the app asks after a lost answer). */
  route(app, contract.moneyOutcome, async ({ db, user, input }) => {
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['status_code', 'response'])
      .where('user_id', '=', user.id)
      .where('key', '=', input.key)
      // status 0 is a request still in its transaction (never visible once committed).
      .where('status_code', '>', 0)
      .executeTakeFirst();
    if (!row) return { found: false as const };
    const answer = JSON.parse(row.response) as { msg: 'ok' | 'no'; data: unknown };
    return { found: true as const, status: row.status_code, answer };
  });

  // Each step read from the state it is about, so the checklist ticks itself (issue 14).
  route(app, contract.onboarding, async ({ user, db }) => {
    const has = async (q: Promise<unknown>) => (await q) !== undefined;
    const [kyc, account, card, funded, watching] = await Promise.all([
      db.selectFrom('kyc').select('status').where('user_id', '=', user.id).executeTakeFirst(),
      db.selectFrom('users').select('fund_password_hash').where('id', '=', user.id).executeTakeFirstOrThrow(),
      has(
        db.selectFrom('bank_cards').select('id').where('user_id', '=', user.id).limit(1).executeTakeFirst(),
      ),
      has(
        db
          .selectFrom('ledger')
          .select('id')
          .where('user_id', '=', user.id)
          .where('reason', '=', 'recharge')
          .limit(1)
          .executeTakeFirst(),
      ),
      has(
        db
          .selectFrom('watchlist_items')
          .innerJoin('watchlists', 'watchlists.id', 'watchlist_items.list_id')
          .select('watchlists.id')
          .where('watchlists.user_id', '=', user.id)
          .limit(1)
          .executeTakeFirst(),
      ),
    ]);
    const identity = (kyc?.status ?? 0) as Onboarding['identity'];
    const steps = {
      identity,
      trade_password: account.fund_password_hash !== null,
      bank_card: card,
      funded,
      watchlist: watching,
    };
    return {
      ...steps,
      done: identity === 2 && steps.trade_password && card && funded && watching,
    };
  });

  route(
    app,
    contract.userInfo,
    async ({ user }) => {
      const rows = await hotReads(deps.database).userInfo(user.id);
      // The session was valid a moment ago; a user deleted since is a caller error, not an answer.
      if (!rows) throw new Error(`user ${user.id} of a valid session is missing`);
      const assets = totalAssets(deps, rows);
      return {
        id: rows.user.id,
        user: rows.user.phone,
        no: rows.user.no,
        img: rows.user.img,
        total: fromMinor(assets.total),
        money: fromMinor(rows.user.balance),
        loan: fromMinor(assets.loan),
        has_fund_password: rows.user.has_fund_password,
      };
    },
    { answer: ANSWERS.userInfo },
  );

  route(app, contract.logout, async ({ req }) => {
    const token = tokenOf(req);
    if (token) {
      await db
        .updateTable('sessions')
        .set({ revoked_at: deps.clock.now() })
        .where('token_hash', '=', sha256(token))
        .where('revoked_at', 'is', null)
        .execute();
      // Committed: the very next call with this token is refused here (other instances: within
      // SESSION_CACHE_MS).
      sessionCache(deps).forgetToken(token);
    }
    return null;
  });
}
