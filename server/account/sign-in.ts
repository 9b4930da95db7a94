import type { LoginAnswer } from '#shared/contract/account';
import { checkPassword, checkPhone, checkRequired } from '#shared/rules';
import { withTx } from '../db/index';
import type { Deps } from '../deps';
import { sha256 } from '../lib/auth';
import { ApiError, refuseFirst } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { hashSecret, verifySecret } from '../lib/passwords';
import { forgetEnded, noticeEnded } from '../lib/session-notices';
import { verifyUnderLoginLimit } from './login-limit';
import { deviceKey, postSecurityNotice, recordSecurityChange } from './security-events';
import { endSessionsWith } from './sessions';
import { openSession, proveForReset } from './two-factor';

/** Compared against when the phone is unknown, so a wrong phone costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;

/** Hashes the stand-in password once, at start, so no request pays for it. */
export function prepareSignIn(deps: Deps): void {
  dummyHash ??= hashSecret('not a password', deps.config.scrypt);
}

/** Verifies a phone + password pair under the login limit; returns the user id or refuses with `wrongKey`. */
async function verifyLogin(deps: Deps, phone: string, password: string, ip: string, wrongKey: string) {
  prepareSignIn(deps);
  const hashing = hashQueue(deps.config);
  let id: number | null = null;
  const ok = await verifyUnderLoginLimit(deps, phone, ip, async () => {
    const user = await deps.database.db
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

/**
 * Login (SPEC §5): phone and password under the login limit; a new session — SPEC's full one, or
 * with two factors due a step that opens only the second step (two-factor.ts).
 */
export async function login(
  deps: Deps,
  input: { user: string; password: string; device?: string },
  ip: string,
  userAgent?: string,
): Promise<LoginAnswer> {
  refuseFirst(checkRequired(input.user, input.password), checkPhone(input.user));
  const id = await verifyLogin(deps, input.user, input.password, ip, 'errors.invalidCredentials');
  // Said only to whoever knows the password: a stranger with the phone learns nothing of a reset.
  const due = await deps.database.db
    .selectFrom('users')
    .select('password_reset_at')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  if (due.password_reset_at !== null) throw new ApiError('errors.passwordResetByStaff', 400);
  return openSession(deps, { id, phone: input.user }, deviceKey(input.device, userAgent), {
    userAgent,
    address: ip,
  });
}

/**
 * Forgot password (SPEC §5): the old password, guessed under the login limit — and where the
 * account has a second factor, an app's code or a recovery code too — sets a new one
 * and ends every session. The reset is told in the inbox and on the other devices' next sign-in,
 * and holds withdrawals for FACTOR_SETTLE_MS. It is also the way back after staff reset the
 * password (account/controls.ts): the new one clears the mark.
 */
export async function forgetPassword(
  deps: Deps,
  input: {
    user: string;
    password: string;
    new_password: string;
    code?: string;
    recovery?: string;
    device?: string;
  },
  ip: string,
  userAgent?: string,
): Promise<null> {
  refuseFirst(
    checkRequired(input.user, input.password, input.new_password),
    checkPhone(input.user),
    checkPassword(input.new_password),
  );
  const id = await verifyLogin(deps, input.user, input.password, ip, 'errors.oldPasswordIncorrect');
  await proveForReset(deps, { id, phone: input.user, ip, userAgent }, input);
  const hash = await hashQueue(deps.config).run(() => hashSecret(input.new_password, deps.config.scrypt));
  const from = { device: deviceKey(input.device, userAgent), userAgent, address: ip };
  await endSessionsWith(deps, id, undefined, async (trx) => {
    const now = deps.clock.now();
    await trx
      .updateTable('users')
      .set({ password_hash: hash, password_reset_at: null })
      .where('id', '=', id)
      .execute();
    await postSecurityNotice(trx, id, 'passwordReset', now, {}, from);
    await recordSecurityChange(trx, id, 'passwordReset', now, from);
  });
  return null;
}

/** Logout: the session behind `token` (if any) ends; other sessions of the user stay. */
export async function logout(deps: Deps, token: string | undefined): Promise<null> {
  if (token) {
    await withTx(deps.database, async (trx) => {
      await trx
        .updateTable('sessions')
        .set({ revoked_at: deps.clock.now() })
        .where('token_hash', '=', sha256(token))
        .where('revoked_at', 'is', null)
        .execute();
      await noticeEnded(trx, deps, { token });
    });
    // Committed: the very next call with this token is refused here, and on the other instances
    // once the notice arrives (lib/session-notices.ts).
    forgetEnded(deps, { token });
  }
  return null;
}
