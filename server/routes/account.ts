import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { contract } from '../../src/shared/contract/index';
import { fromMinor } from '../../src/shared/money';
import { checkPassword, checkPhone, checkRequired } from '../../src/shared/rules';
import { hotReads } from '../db/hot';
import { withTx } from '../db/index';
import { totalAssets } from '../lib/assets';
import { createSession, sha256, tokenOf } from '../lib/auth';
import { ApiError, invalid } from '../lib/errors';
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from '../lib/login-limit';
import { hashSecret, verifySecret } from '../lib/passwords';
import { route } from '../lib/route';

/** Compared against when the phone is unknown, so a wrong phone costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;

function check(...keys: Array<string | null>): void {
  const key = keys.find((k) => k !== null);
  if (key) throw invalid(key);
}

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const { db } = deps.database;
  dummyHash ??= hashSecret('not a password', deps.config.scrypt);

  /** Verifies a phone + password pair under the login limit; returns the user id. */
  async function verifyLogin(phone: string, password: string, ip: string, wrongKey: string): Promise<number> {
    await assertLoginAllowed(deps, phone, ip);
    const user = await db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('phone', '=', phone)
      .executeTakeFirst();
    const ok = await verifySecret(password, user?.password_hash ?? (await dummyHash!));
    if (!user || !ok) {
      await recordLoginFailure(deps, phone, ip);
      throw new ApiError(wrongKey, 400);
    }
    await recordLoginSuccess(deps, phone);
    return user.id;
  }

  route(app, contract.register, async ({ input }) => {
    check(
      checkRequired(input.user, input.password, input.code),
      checkPhone(input.user),
      checkPassword(input.password),
    );
    const passwordHash = await hashSecret(input.password, deps.config.scrypt);
    const now = deps.clock.now();
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
      const row = await trx
        .insertInto('users')
        .values({
          phone: input.user,
          password_hash: passwordHash,
          no: `B${String(randomInt(10_000_000, 99_999_999))}`,
          img: null,
          balance: 0,
          fund_password_hash: null,
          fund_password_fails: 0,
          fund_password_locked_until: null,
          credit_score: 100,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id };
    });
  });

  route(app, contract.login, async ({ input, req }) => {
    check(checkRequired(input.user, input.password), checkPhone(input.user));
    const id = await verifyLogin(input.user, input.password, req.ip, 'errors.invalidCredentials');
    const token = await createSession(deps, id);
    return { token, id, user: input.user, login: deps.clock.now() };
  });

  route(app, contract.forget, async ({ input, req }) => {
    check(
      checkRequired(input.user, input.password, input.new_password),
      checkPhone(input.user),
      checkPassword(input.new_password),
    );
    const id = await verifyLogin(input.user, input.password, req.ip, 'errors.oldPasswordIncorrect');
    const passwordHash = await hashSecret(input.new_password, deps.config.scrypt);
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
    return null;
  });

  route(app, contract.userInfo, async ({ user }) => {
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
  });

  route(app, contract.logout, async ({ req }) => {
    const token = tokenOf(req);
    if (token) {
      await db
        .updateTable('sessions')
        .set({ revoked_at: deps.clock.now() })
        .where('token_hash', '=', sha256(token))
        .where('revoked_at', 'is', null)
        .execute();
    }
    return null;
  });
}
