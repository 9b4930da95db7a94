import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { LoginAnswer, SecondStep } from '#shared/contract/account';
import type { Enrolled, SecurityState, WebAuthnOptions } from '#shared/contract/security';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import {
  addPasskey,
  beginTotp,
  confirmTotp,
  type FactorContext,
  type FactorOwner,
  type Factors,
  FlaggedPasskey,
  factorsOf,
  type Guard,
  hasFactor,
  newRecoveryCodes,
  type Passkey,
  type Proof,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  removePasskey,
  removeRecoveryCodes,
  removeTotp,
  renamePasskey,
  verifyPasskey,
  verifySecondFactor,
} from '../factors/index';
import { type AuthUser, createSession, sha256 } from '../lib/auth';
import { ApiError, notFound } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { verifySecret } from '../lib/passwords';
import { forgetEnded, noticeEnded } from '../lib/session-notices';
import { verifyUnderLoginLimit } from './login-limit';
import { noteDevice, postSecurityNotice, type SecurityEvent } from './security-events';
import { endSessionsWith } from './sessions';

/**
 * Customers' second factors (issue 32), on server/factors: the sign-in's second step, enrolment
 * (also forced, while REQUIRE_2FA holds and the account has none), removal with a second factor
 * (ending the other sessions), the app lock's online unlock, and the inbox notices of each.
 * Every guess — an app's code, a recovery code, a passkey's assertion — counts against the login
 * limit of the account's phone number and the caller's address, the same count as passwords.
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

/** Guesses of a second factor share the password's lockout. */
const guardOf =
  (deps: Deps, phone: string, ip: string): Guard =>
  (verify) =>
    verifyUnderLoginLimit(deps, phone, ip, verify);

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
): Promise<LoginAnswer> {
  const factors = await factorsOf(factorContext(deps), userOwner(user.id));
  const now = deps.clock.now();
  let second: Omit<SecondStep, 'expires_at'>;
  if (hasFactor(factors)) second = { stage: 'verify', methods: methodsOf(factors) };
  else if (deps.config.twoFactor.required) second = { stage: 'enrol', methods: ['passkey', 'totp'] };
  else return fullSession(deps, user, device);
  const { token, expiresAt } = await createSession(deps, user.id, { stage: second.stage, device });
  return { token, id: user.id, user: user.phone, login: now, second: { ...second, expires_at: expiresAt } };
}

/** A full session (ending the step session `stepToken`, when one led here); the device is noted. */
async function fullSession(
  deps: Deps,
  user: { id: number; phone: string },
  device: string,
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
    const made = await createSession(deps, user.id, { db: trx });
    await noteDevice(trx, user.id, device, now);
    return made.token;
  });
  if (stepToken) forgetEnded(deps, { token: stepToken });
  return { token, id: user.id, user: user.phone, login: now };
}

/** The device a step session came from (noted at login). */
async function stepDevice(deps: Deps, token: string): Promise<string> {
  const row = await deps.database.db
    .selectFrom('sessions')
    .select('device')
    .where('token_hash', '=', sha256(token))
    .executeTakeFirst();
  return row?.device ?? sha256('unknown');
}

type ProofInput = { passkey?: AuthenticationResponseJSON; code?: string; recovery?: string };

/** Exactly one proof, or a clear refusal. */
function proofOf(input: ProofInput): Proof {
  const given = [input.passkey, input.code, input.recovery].filter((p) => p !== undefined);
  if (given.length !== 1) throw new ApiError('errors.proofMissing', 400);
  if (input.passkey) return { passkey: input.passkey };
  if (input.code !== undefined) return { code: input.code };
  return { recovery: input.recovery as string };
}

const notice = (deps: Deps, userId: number, event: SecurityEvent, params?: Record<string, string | number>) =>
  postSecurityNotice(deps.database.db, userId, event, deps.clock.now(), params);

/**
 * Verifies one proof of the caller's second factor; tells the user of a recovery code used or a
 * passkey found copied (flagged).
 */
async function prove(deps: Deps, caller: Caller, proof: Proof): Promise<void> {
  const ctx = factorContext(deps);
  try {
    const { kind } = await verifySecondFactor(
      ctx,
      userOwner(caller.id),
      proof,
      guardOf(deps, caller.phone, caller.ip),
    );
    if (kind === 'recovery') {
      const left = (await factorsOf(ctx, userOwner(caller.id))).recoveryLeft;
      await notice(deps, caller.id, 'recoveryUsed', { left });
    }
  } catch (err) {
    if (err instanceof FlaggedPasskey && err.fresh)
      await notice(deps, caller.id, 'passkeyFlagged', { name: err.passkey.name });
    throw err;
  }
}

/** The second step: one proof turns the `verify` step into SPEC's full session. */
export async function secondFactor(deps: Deps, caller: Caller, input: ProofInput): Promise<LoginAnswer> {
  if (caller.stage !== 'verify') throw new ApiError('errors.invalidInput', 400);
  await prove(deps, caller, proofOf(input));
  return fullSession(deps, caller, await stepDevice(deps, caller.token), caller.token);
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
 * A factor was just set up: the user is told; the account gets its recovery codes with its first
 * factor (or when its set was used up); an `enrol` step becomes a full session.
 */
async function enrolled(
  deps: Deps,
  caller: Caller,
  before: Factors,
  event: SecurityEvent,
  params?: Record<string, string | number>,
): Promise<Enrolled> {
  await notice(deps, caller.id, event, params);
  const ctx = factorContext(deps);
  const codes =
    !hasFactor(before) || before.recoveryLeft === 0
      ? await newRecoveryCodes(ctx, userOwner(caller.id))
      : null;
  const session =
    caller.stage === 'enrol'
      ? await fullSession(deps, caller, await stepDevice(deps, caller.token), caller.token)
      : null;
  return { recovery_codes: codes, session };
}

export async function passkeyOptions(deps: Deps, caller: AuthUser): Promise<WebAuthnOptions> {
  const options = await passkeyRegistrationOptions(factorContext(deps), userOwner(caller.id), {
    name: caller.phone,
    displayName: caller.phone,
  });
  return options as unknown as WebAuthnOptions;
}

export async function passkeyAdd(
  deps: Deps,
  caller: Caller,
  input: { response: RegistrationResponseJSON; name: string },
): Promise<Enrolled & { passkey: Passkey }> {
  const ctx = factorContext(deps);
  const before = await factorsOf(ctx, userOwner(caller.id));
  const passkey = await addPasskey(ctx, userOwner(caller.id), input.response, input.name);
  return { passkey, ...(await enrolled(deps, caller, before, 'passkeyAdded', { name: passkey.name })) };
}

export async function passkeyRename(deps: Deps, caller: AuthUser, input: { id: number; name: string }) {
  await renamePasskey(factorContext(deps), userOwner(caller.id), input.id, input.name);
  return null;
}

export async function totpSetup(deps: Deps, caller: AuthUser) {
  return beginTotp(factorContext(deps), userOwner(caller.id), {
    issuer: deps.config.twoFactor.rpName,
    account: caller.phone,
  });
}

export async function totpConfirm(deps: Deps, caller: Caller, input: { code: string }): Promise<Enrolled> {
  const ctx = factorContext(deps);
  const before = await factorsOf(ctx, userOwner(caller.id));
  await confirmTotp(ctx, userOwner(caller.id), input.code, guardOf(deps, caller.phone, caller.ip));
  return enrolled(deps, caller, before, 'totpAdded');
}

/**
 * Removes a factor after a proof of one: refused for the last one while REQUIRE_2FA holds; the
 * recovery codes go with the last one; the user is told and every other session ends.
 */
async function removeFactor(
  deps: Deps,
  caller: Caller,
  input: ProofInput,
  left: (f: Factors) => boolean,
  remove: (ctx: FactorContext) => Promise<void>,
  event: SecurityEvent,
  params?: Record<string, string | number>,
): Promise<null> {
  const proof = proofOf(input);
  const before = await factorsOf(factorContext(deps), userOwner(caller.id));
  if (deps.config.twoFactor.required && !left(before)) throw new ApiError('errors.lastFactor', 409);
  await prove(deps, caller, proof);
  await endSessionsWith(deps, caller.id, caller.token, async (trx) => {
    const ctx = factorContext(deps, trx);
    await remove(ctx);
    if (!left(before)) await removeRecoveryCodes(ctx, userOwner(caller.id));
    await postSecurityNotice(trx, caller.id, event, ctx.now, params);
  });
  return null;
}

export async function passkeyRemove(deps: Deps, caller: Caller, input: ProofInput & { id: number }) {
  const before = await factorsOf(factorContext(deps), userOwner(caller.id));
  const target = before.passkeys.find((p) => p.id === input.id);
  if (!target) throw notFound();
  return removeFactor(
    deps,
    caller,
    input,
    (f) => f.totp || f.passkeys.some((p) => p.id !== target.id),
    async (ctx) => {
      await removePasskey(ctx, userOwner(caller.id), target.id);
    },
    'passkeyRemoved',
    { name: target.name },
  );
}

export async function totpRemove(deps: Deps, caller: Caller, input: ProofInput) {
  if (!(await factorsOf(factorContext(deps), userOwner(caller.id))).totp)
    throw new ApiError('errors.totpNotSetUp', 400);
  return removeFactor(
    deps,
    caller,
    input,
    (f) => f.passkeys.length > 0,
    async (ctx) => {
      await removeTotp(ctx, userOwner(caller.id));
    },
    'totpRemoved',
  );
}

export async function recoveryRenew(deps: Deps, caller: Caller, input: ProofInput) {
  const ctx = factorContext(deps);
  if (!hasFactor(await factorsOf(ctx, userOwner(caller.id)))) throw new ApiError('errors.totpNotSetUp', 400);
  await prove(deps, caller, proofOf(input));
  const codes = await newRecoveryCodes(factorContext(deps), userOwner(caller.id));
  await notice(deps, caller.id, 'recoveryRenewed');
  return { recovery_codes: codes };
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
      guardOf(deps, caller.phone, caller.ip),
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
