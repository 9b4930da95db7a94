import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Enrolled, WebAuthnOptions } from '#shared/contract/security';
import type { Deps } from '../deps';
import {
  addPasskey,
  beginTotp,
  confirmTotp,
  endUngatedEnrolments,
  type FactorContext,
  type Factors,
  factorsOf,
  hasFactor,
  newRecoveryCodes,
  type Passkey,
  passkeyRegistrationOptions,
  recoverySetMadeAt,
  removePasskey,
  removeRecoveryCodes,
  removeTotp,
  renamePasskey,
  totpConfirmedAt,
} from '../factors/index';
import { type AuthUser, sha256 } from '../lib/auth';
import { ApiError, notFound } from '../lib/errors';
import { postSecurityNotice, recordSecurityChange, type SecurityChangeEvent } from './security-events';
import { endEnrolSteps, endSessionsWith } from './sessions';
import { withStepUp } from './step-up';
import {
  type Caller,
  factorContext,
  fullSession,
  guardOf,
  notice,
  originOf,
  type ProofInput,
  type Proved,
  proofOf,
  prove,
  sessionDevice,
  sourceOf,
  userOwner,
} from './two-factor';

/**
 * Adding, renaming and removing a customer's second factors and renewing the recovery codes, on
 * the sign-in's proofs (two-factor.ts): each change bound to the session that began it, proven
 * where the account has a factor already, told to the user and the other devices.
 */

/**
 * A factor was just set up: the user is told (the inbox, and the other devices' next sign-in);
 * enrolments begun elsewhere before the account had a factor die, and so do its other enrolment
 * steps; the account gets its recovery codes with its first factor (or when its set was
 * used up); an `enrol` step becomes a full session.
 */
async function enrolled(
  deps: Deps,
  caller: Caller,
  before: Factors,
  event: SecurityChangeEvent,
  params?: Record<string, string | number>,
): Promise<Enrolled> {
  const ctx = factorContext(deps);
  const owner = userOwner(caller.id);
  await endUngatedEnrolments(ctx, owner, sha256(caller.token));
  await endEnrolSteps(deps, caller.id, caller.token);
  await notice(deps, caller, event, params);
  await recordSecurityChange(deps.database.db, caller.id, event, ctx.now, await sourceOf(deps, caller));
  const codes = !hasFactor(before) || before.recoveryLeft === 0 ? await newRecoveryCodes(ctx, owner) : null;
  const session =
    caller.stage === 'enrol'
      ? await fullSession(deps, caller, await sessionDevice(deps, caller), originOf(caller), caller.token)
      : null;
  return { recovery_codes: codes, session };
}

/**
 * Begins adding a factor (passkey options, an app's secret): bound to the caller's session; where
 * the account has a factor already, only after a fresh proof of one (the step-up, used up here).
 */
function beginEnrolment<T>(
  deps: Deps,
  caller: Caller,
  begin: (binding: { session: string; gated: boolean }) => Promise<T>,
): Promise<T> {
  return withStepUp(deps, caller.id, caller.token, (taken) =>
    begin({ session: sha256(caller.token), gated: taken.needed }),
  );
}

export async function passkeyOptions(deps: Deps, caller: Caller): Promise<WebAuthnOptions> {
  const options = await beginEnrolment(deps, caller, (binding) =>
    passkeyRegistrationOptions(
      factorContext(deps),
      userOwner(caller.id),
      { name: caller.phone, displayName: caller.phone },
      binding,
    ),
  );
  return options as unknown as WebAuthnOptions;
}

export async function passkeyAdd(
  deps: Deps,
  caller: Caller,
  input: { response: RegistrationResponseJSON; name: string },
): Promise<Enrolled & { passkey: Passkey }> {
  const ctx = factorContext(deps);
  const before = await factorsOf(ctx, userOwner(caller.id));
  const passkey = await addPasskey(
    ctx,
    userOwner(caller.id),
    input.response,
    input.name,
    sha256(caller.token),
  );
  return { passkey, ...(await enrolled(deps, caller, before, 'passkeyAdded', { name: passkey.name })) };
}

export async function passkeyRename(deps: Deps, caller: AuthUser, input: { id: number; name: string }) {
  await renamePasskey(factorContext(deps), userOwner(caller.id), input.id, input.name);
  return null;
}

export async function totpSetup(deps: Deps, caller: Caller) {
  // Said before any proof is asked for: there is nothing to add.
  if ((await totpConfirmedAt(factorContext(deps), userOwner(caller.id))) !== null)
    throw new ApiError('errors.totpAlreadyOn', 409);
  return beginEnrolment(deps, caller, (binding) =>
    beginTotp(
      factorContext(deps),
      userOwner(caller.id),
      { issuer: deps.config.twoFactor.rpName, account: caller.phone },
      { ...binding, pendingMs: deps.config.twoFactor.stepTtlMs },
    ),
  );
}

export async function totpConfirm(deps: Deps, caller: Caller, input: { code: string }): Promise<Enrolled> {
  const ctx = factorContext(deps);
  const before = await factorsOf(ctx, userOwner(caller.id));
  await confirmTotp(
    ctx,
    userOwner(caller.id),
    input.code,
    guardOf(deps, caller.id, caller.ip),
    sha256(caller.token),
  );
  return enrolled(deps, caller, before, 'totpAdded');
}

/**
 * A factor added within FACTOR_SETTLE_MS cannot authorise changing one the account had before it:
 * a thief who got one factor in must not use it to push the owner's out. Recovery
 * codes can (the owner printed them; the one used is gone and they are told).
 */
function mayChange(deps: Deps, proved: Proved, targetSince: number | null): void {
  if (proved.since === null || targetSince === null) return;
  const young = deps.clock.now() - proved.since < deps.config.twoFactor.settleMs;
  if (young && proved.since > targetSince) throw new ApiError('errors.factorTooNew', 403);
}

/**
 * Removes a factor after a proof of one the account had before it: refused for the last one while
 * REQUIRE_2FA holds; the recovery codes go with the last one; the user is told (the inbox and the
 * other devices) and every other session ends.
 */
async function removeFactor(
  deps: Deps,
  caller: Caller,
  input: ProofInput,
  target: { since: number | null; left: (f: Factors) => boolean },
  remove: (ctx: FactorContext) => Promise<void>,
  event: SecurityChangeEvent,
  params?: Record<string, string | number>,
): Promise<null> {
  const proof = proofOf(input);
  const before = await factorsOf(factorContext(deps), userOwner(caller.id));
  if (deps.config.twoFactor.required && !target.left(before)) throw new ApiError('errors.lastFactor', 409);
  mayChange(deps, await prove(deps, caller, proof), target.since);
  const from = await sourceOf(deps, caller);
  await endSessionsWith(deps, caller.id, caller.token, async (trx) => {
    const ctx = factorContext(deps, trx);
    await remove(ctx);
    if (!target.left(before)) await removeRecoveryCodes(ctx, userOwner(caller.id));
    await postSecurityNotice(trx, caller.id, event, ctx.now, params ?? {}, originOf(caller));
    await recordSecurityChange(trx, caller.id, event, ctx.now, from);
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
    { since: target.created_at, left: (f) => f.totp || f.passkeys.some((p) => p.id !== target.id) },
    async (ctx) => {
      await removePasskey(ctx, userOwner(caller.id), target.id);
    },
    'passkeyRemoved',
    { name: target.name },
  );
}

export async function totpRemove(deps: Deps, caller: Caller, input: ProofInput) {
  const since = await totpConfirmedAt(factorContext(deps), userOwner(caller.id));
  if (since === null) throw new ApiError('errors.totpNotSetUp', 400);
  return removeFactor(
    deps,
    caller,
    input,
    { since, left: (f) => f.passkeys.length > 0 },
    async (ctx) => {
      await removeTotp(ctx, userOwner(caller.id));
    },
    'totpRemoved',
  );
}

/** A new set of recovery codes, after a proof of a factor the account had before the current set. */
export async function recoveryRenew(deps: Deps, caller: Caller, input: ProofInput) {
  const ctx = factorContext(deps);
  const owner = userOwner(caller.id);
  if (!hasFactor(await factorsOf(ctx, owner))) throw new ApiError('errors.totpNotSetUp', 400);
  const set = await recoverySetMadeAt(ctx, owner);
  mayChange(deps, await prove(deps, caller, proofOf(input)), set);
  const now = deps.clock.now();
  const codes = await newRecoveryCodes({ ...ctx, now }, owner);
  await notice(deps, caller, 'recoveryRenewed');
  await recordSecurityChange(
    deps.database.db,
    caller.id,
    'recoveryRenewed',
    now,
    await sourceOf(deps, caller),
  );
  return { recovery_codes: codes };
}
