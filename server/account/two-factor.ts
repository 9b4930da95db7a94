import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { LoginAnswer, SecondStep } from '#shared/contract/account';
import type { SecurityChange, SecurityState, WebAuthnOptions } from '#shared/contract/security';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import {
  type FactorContext,
  type FactorOwner,
  type Factors,
  FlaggedPasskey,
  factorsOf,
  type Guard,
  hasFactor,
  type Proof,
  type ProofKind,
  passkeyAuthenticationOptions,
  totpConfirmedAt,
  verifyPasskey,
  verifySecondFactor,
} from '../factors/index';
import { type AuthUser, createSession, sha256 } from '../lib/auth';
import { ApiError } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { verifySecret } from '../lib/passwords';
import { forgetEnded, noticeEnded } from '../lib/session-notices';
import { factorGuard, verifyUnderLoginLimit } from './login-limit';
import {
  acknowledgeChanges,
  type ChangeSource,
  deviceKey,
  type NoticeOrigin,
  noteDevice,
  postSecurityNotice,
  type SecurityEvent,
  securityChangesFor,
} from './security-events';
import { markSteppedUp } from './step-up';

/**
 * Customers' second factors, on server/factors: the sign-in's second step, enrolment
 * (also forced, while REQUIRE_2FA holds and the account has none), removal with a second factor
 * (ending the other sessions), the app lock's online unlock, and the inbox notices of each.
 * Every guess — an app's code, a recovery code, a passkey's assertion — counts against the
 * account's own second-factor limit (never cleared by a password) and the caller's address.
 */

/** Where a request came from: its address (the lockout), user agent (devices) and token. */
export interface Caller extends AuthUser {
  ip: string;
  userAgent: string | undefined;
  token: string;
}

export const userOwner = (id: number): FactorOwner => ({ kind: 'user', id });

export function factorContext(deps: Deps, db: Kysely<DB> = deps.database.db): FactorContext {
  return { db, now: deps.clock.now(), settings: deps.config.twoFactor };
}

/** Guesses of a second factor: the account's own count, apart from passwords (login-limit.ts). */
export const guardOf = (deps: Deps, userId: number, ip: string): Guard =>
  factorGuard(deps, userOwner(userId), ip);

/** The proofs this account can give at the second step. */
function methodsOf(f: Factors): SecondStep['methods'] {
  const methods: SecondStep['methods'] = [];
  if (f.passkeys.some((p) => !p.flagged)) methods.push('passkey');
  if (f.totp) methods.push('totp');
  if (f.recoveryLeft > 0) methods.push('recovery');
  return methods;
}

/**
 * After a right password (login): SPEC's answer with a full session for an account without a
 * second factor in a mode that does not require one; otherwise the answer's token opens only the
 * step — giving a factor (`verify`), or setting up a first one (`enrol`, REQUIRE_2FA).
 */
export async function openSession(
  deps: Deps,
  user: { id: number; phone: string },
  device: string,
  from: NoticeOrigin,
): Promise<LoginAnswer> {
  const factors = await factorsOf(factorContext(deps), userOwner(user.id));
  const now = deps.clock.now();
  let second: Omit<SecondStep, 'expires_at'>;
  if (hasFactor(factors)) second = { stage: 'verify', methods: methodsOf(factors) };
  else if (deps.config.twoFactor.required) second = { stage: 'enrol', methods: ['passkey', 'totp'] };
  else return fullSession(deps, user, device, from);
  const { token, expiresAt } = await createSession(deps, user.id, { stage: second.stage, device });
  return { token, id: user.id, user: user.phone, login: now, second: { ...second, expires_at: expiresAt } };
}

/** A full session (ending the step session `stepToken`, when one led here); the device is noted. */
export async function fullSession(
  deps: Deps,
  user: { id: number; phone: string },
  device: string,
  from: NoticeOrigin,
  stepToken?: string,
): Promise<LoginAnswer> {
  const now = deps.clock.now();
  const token = await withTx(deps.database, async (trx) => {
    if (stepToken) {
      await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('token_hash', '=', sha256(stepToken))
        .where('revoked_at', 'is', null)
        .execute();
      await noticeEnded(trx, deps, { token: stepToken });
    }
    const made = await createSession(deps, user.id, { db: trx, device });
    await noteDevice(trx, user.id, device, now, from);
    return made.token;
  });
  if (stepToken) forgetEnded(deps, { token: stepToken });
  return { token, id: user.id, user: user.phone, login: now };
}

/** The device a session came from (noted at login; its user agent for a session of before). */
export async function sessionDevice(deps: Deps, caller: Caller): Promise<string> {
  const row = await deps.database.db
    .selectFrom('sessions')
    .select('device')
    .where('token_hash', '=', sha256(caller.token))
    .executeTakeFirst();
  return row?.device ?? deviceKey(undefined, caller.userAgent);
}

/** Where a change the caller makes comes from (security_changes). */
export async function sourceOf(deps: Deps, caller: Caller): Promise<ChangeSource> {
  return { device: await sessionDevice(deps, caller), userAgent: caller.userAgent, address: caller.ip };
}

export type ProofInput = { passkey?: AuthenticationResponseJSON; code?: string; recovery?: string };

/** Exactly one proof, or a clear refusal. */
export function proofOf(input: ProofInput): Proof {
  const given = [input.passkey, input.code, input.recovery].filter((p) => p !== undefined);
  if (given.length !== 1) throw new ApiError('errors.proofMissing', 400);
  if (input.passkey) return { passkey: input.passkey };
  if (input.code !== undefined) return { code: input.code };
  return { recovery: input.recovery as string };
}

/** What a caller's request shows of where it came from (a notice's device and address). */
export const originOf = (caller: Pick<Caller, 'ip' | 'userAgent'>): NoticeOrigin => ({
  userAgent: caller.userAgent,
  address: caller.ip,
});

export const notice = (
  deps: Deps,
  caller: Pick<Caller, 'id' | 'ip' | 'userAgent'>,
  event: SecurityEvent,
  params: Record<string, string | number> = {},
) => postSecurityNotice(deps.database.db, caller.id, event, deps.clock.now(), params, originOf(caller));

/** The factor a proof came from: its kind, and since when the account has had it (null: a recovery code). */
export interface Proved {
  kind: ProofKind;
  since: number | null;
}

/**
 * Verifies one proof of the caller's second factor; tells the user of a recovery code used or a
 * passkey found copied (flagged). Answers which factor it was.
 */
export async function prove(
  deps: Deps,
  caller: Pick<Caller, 'id' | 'phone' | 'ip' | 'userAgent'>,
  proof: Proof,
): Promise<Proved> {
  const ctx = factorContext(deps);
  try {
    const used = await verifySecondFactor(
      ctx,
      userOwner(caller.id),
      proof,
      guardOf(deps, caller.id, caller.ip),
    );
    if (used.kind === 'recovery') {
      const left = (await factorsOf(ctx, userOwner(caller.id))).recoveryLeft;
      await notice(deps, caller, 'recoveryUsed', { left });
      return { kind: 'recovery', since: null };
    }
    if (used.kind === 'passkey' && used.passkey) return { kind: 'passkey', since: used.passkey.created_at };
    return { kind: used.kind, since: await totpConfirmedAt(ctx, userOwner(caller.id)) };
  } catch (err) {
    if (err instanceof FlaggedPasskey && err.fresh)
      await notice(deps, caller, 'passkeyFlagged', { name: err.passkey.name });
    throw err;
  }
}

/**
 * Forgot password: where the account has a factor, the old password alone resets
 * nothing — an app's code or a recovery code must come with it (no passkey: the screen has no
 * session to ask a challenge with). Nothing to prove for an account without a factor.
 */
export async function proveForReset(
  deps: Deps,
  user: { id: number; phone: string; ip: string; userAgent: string | undefined },
  input: { code?: string; recovery?: string },
): Promise<void> {
  if (!hasFactor(await factorsOf(factorContext(deps), userOwner(user.id)))) return;
  if (input.code === undefined && input.recovery === undefined)
    throw new ApiError('errors.resetNeedsFactor', 400);
  await prove(deps, user, proofOf(input));
}

/** The second step: one proof turns the `verify` step into SPEC's full session. */
export async function secondFactor(deps: Deps, caller: Caller, input: ProofInput): Promise<LoginAnswer> {
  if (caller.stage !== 'verify') throw new ApiError('errors.invalidInput', 400);
  await prove(deps, caller, proofOf(input));
  return fullSession(deps, caller, await sessionDevice(deps, caller), originOf(caller), caller.token);
}

/** Options to sign with a passkey (the second step, a removal's proof, the app lock). */
export async function factorChallenge(deps: Deps, caller: AuthUser): Promise<WebAuthnOptions> {
  return (await passkeyAuthenticationOptions(
    factorContext(deps),
    userOwner(caller.id),
  )) as unknown as WebAuthnOptions;
}

export async function securityState(deps: Deps, caller: AuthUser): Promise<SecurityState> {
  const f = await factorsOf(factorContext(deps), userOwner(caller.id));
  return {
    required: deps.config.twoFactor.required,
    passkeys: f.passkeys,
    totp: f.totp,
    recovery_left: f.recoveryLeft,
    rp_id: deps.config.twoFactor.rpId,
  };
}

/**
 * Step-up: one proof of a factor the account has marks the session for STEP_UP_MS, for
 * the one change that needs it next (account/step-up.ts).
 */
export async function stepUp(
  deps: Deps,
  caller: Caller,
  input: ProofInput,
): Promise<{ fresh_until: number }> {
  const proof = proofOf(input);
  if (!hasFactor(await factorsOf(factorContext(deps), userOwner(caller.id))))
    throw new ApiError('errors.noFactor', 400);
  await prove(deps, caller, proof);
  const now = deps.clock.now();
  await markSteppedUp(deps.database.db, caller.token, now);
  return { fresh_until: now + deps.config.twoFactor.stepUpMs };
}

/** The security changes made from the user's other devices that this one has not acknowledged. */
export async function securityChanges(deps: Deps, caller: Caller): Promise<SecurityChange[]> {
  return securityChangesFor(deps.database.db, caller.id, await sessionDevice(deps, caller), deps.clock.now());
}

export async function securityChangesSeen(
  deps: Deps,
  caller: Caller,
  input: { up_to: number },
): Promise<null> {
  const now = deps.clock.now();
  await acknowledgeChanges(deps.database.db, caller.id, await sessionDevice(deps, caller), input.up_to, now);
  return null;
}

/**
 * The app lock's online unlock: the login password (under the login limit) or a passkey's
 * assertion (a challenge from `factorChallenge`). The session itself never locked: the lock is the
 * device's, this only proves the person holding it is the user.
 */
export async function unlock(
  deps: Deps,
  caller: Caller,
  input: { password?: string; passkey?: AuthenticationResponseJSON },
): Promise<null> {
  if ((input.password === undefined) === (input.passkey === undefined))
    throw new ApiError('errors.proofMissing', 400);
  if (input.passkey) {
    await verifyPasskey(
      factorContext(deps),
      userOwner(caller.id),
      input.passkey,
      guardOf(deps, caller.id, caller.ip),
    );
    return null;
  }
  const password = input.password as string;
  const right = await verifyUnderLoginLimit(deps, caller.phone, caller.ip, async () => {
    const row = await deps.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', caller.id)
      .executeTakeFirstOrThrow();
    return hashQueue(deps.config).run(() => verifySecret(password, row.password_hash));
  });
  if (!right) throw new ApiError('errors.invalidCredentials', 400);
  return null;
}
