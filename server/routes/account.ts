import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Onboarding } from '#shared/contract/account';
import { ERR } from '#shared/contract/define';
import { contract } from '#shared/contract/index';
import { fromMinor } from '#shared/money';
import { checkPassword, checkPhone, checkRequired } from '#shared/rules';
import { totalAssets } from '../account/assets';
import { verifyUnderLoginLimit } from '../account/login-limit';
import { createUser } from '../account/users';
import { hotReads } from '../db/hot';
import { withTx } from '../db/index';
import { addressKey, reserveAttempt } from '../lib/attempts';
import { createSession, sessionCache, sha256, tokenOf } from '../lib/auth';
import { ApiError, invalid, refuseFirst } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { hashSecret, verifySecret } from '../lib/passwords';
import { route } from '../lib/route';
import { ANSWERS } from './answers';

/** Compared against when the phone is unknown, so a wrong phone costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const { db } = deps.database;
  dummyHash ??= hashSecret('not a password', deps.config.scrypt);

  const hashing = hashQueue(deps.config);

  /** Verifies a phone + password pair under the login limit; returns the user id. */
  async function verifyLogin(phone: string, password: string, ip: string, wrongKey: string): Promise<number> {
    let id: number | null = null;
    const ok = await verifyUnderLoginLimit(deps, phone, ip, async () => {
      const user = await db
        .selectFrom('users')
        .select(['id', 'password_hash'])
        .where('phone', '=', phone)
        .executeTakeFirst();
      const stored = user?.password_hash ?? (await dummyHash!);
      const right = await hashing.run(() => verifySecret(password, stored));
      id = user && right ? user.id : null;
      return id !== null;
    });
    if (!ok || id === null) throw new ApiError(wrongKey, 400);
    return id;
  }

  route(app, contract.register, async ({ input, req }) => {
    refuseFirst(
      checkRequired(input.user, input.password, input.code),
      checkPhone(input.user),
      checkPassword(input.password),
    );
    const now = deps.clock.now();
    const { perAddress, windowMs } = deps.config.signupLimit;
    if (!(await reserveAttempt(db, `reg:${addressKey(req.ip)}`, perAddress, windowMs, now))) {
      throw new ApiError(ERR.tooManyAttempts, 429);
    }
    // The cheap checks come before the expensive hash (they are made again in the transaction).
    const usable = await db
      .selectFrom('invitation_codes')
      .select('code')
      .where('code', '=', input.code.trim())
      .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
      .executeTakeFirst();
    if (!usable) throw invalid('errors.invalidInvitationCode');
    const known = await db
      .selectFrom('users')
      .select('id')
      .where('phone', '=', input.user)
      .executeTakeFirst();
    if (known) throw invalid('errors.phoneTaken');
    const passwordHash = await hashing.run(() => hashSecret(input.password, deps.config.scrypt));
    return withTx(deps.database, async (trx) => {
      const code = await trx
        .updateTable('invitation_codes')
        .set({ uses: sql<number>`uses + 1` })
        .where('code', '=', input.code.trim())
        .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
        .executeTakeFirst();
      if (Number(code.numUpdatedRows) === 0) throw invalid('errors.invalidInvitationCode');
      const taken = await trx
        .selectFrom('users')
        .select('id')
        .where('phone', '=', input.user)
        .executeTakeFirst();
      if (taken) throw invalid('errors.phoneTaken');
      return { id: await createUser(trx, { phone: input.user, passwordHash, at: now }) };
    });
  });

  route(app, contract.login, async ({ input, req }) => {
    refuseFirst(checkRequired(input.user, input.password), checkPhone(input.user));
    const id = await verifyLogin(input.user, input.password, req.ip, 'errors.invalidCredentials');
    const token = await createSession(deps, id);
    return { token, id, user: input.user, login: deps.clock.now() };
  });

  route(app, contract.forget, async ({ input, req }) => {
    refuseFirst(
      checkRequired(input.user, input.password, input.new_password),
      checkPhone(input.user),
      checkPassword(input.new_password),
    );
    const id = await verifyLogin(input.user, input.password, req.ip, 'errors.oldPasswordIncorrect');
    const passwordHash = await hashing.run(() => hashSecret(input.new_password, deps.config.scrypt));
    await withTx(deps.database, async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
      // A new password ends every session opened with the old one.
      await trx
        .updateTable('sessions')
        .set({ revoked_at: deps.clock.now() })
        .where('user_id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    });
    sessionCache(deps).forgetUser(id);
    return null;
  });

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
