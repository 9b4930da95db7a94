import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FactorProof, Stage } from '#shared/backoffice';
import type { Deps } from '../deps';
import {
  addPasskey,
  attemptGuard,
  beginTotp,
  confirmTotp,
  type FactorContext,
  type FactorOwner,
  factorGuesses,
  factorsOf,
  type Guard,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  verifySecondFactor,
} from '../factors/index';
import { addressKey } from '../lib/attempts';
import { audited, auditRefusal } from '../lib/audit-log';
import { ApiError } from '../lib/errors';
import { type StaffMember, type StaffSession, staffActor } from './staff';
import { factorGiven } from './staff-sessions';

/**
 * Staff second factors through the shared factor module (server/factors): an
 * authenticator app (TOTP) or a passkey, owned as `staff:<id>`. Setting one up ends the enrolment
 * stage; giving one ends the verify stage or refreshes a full session's step-up. Guesses count
 * against a lockout per member (apart from the password's, cleared by time only) and per address. Staff get no recovery codes: a member who loses
 * their factor is disabled and added again by an admin.
 */

const owner = (staffId: number): FactorOwner => ({ kind: 'staff', id: staffId });
const context = (deps: Deps): FactorContext => ({
  db: deps.database.db,
  now: deps.clock.now(),
  settings: deps.config.twoFactor,
});
const GUESSES = { perMember: 5, perAddress: 30, windowMs: 15 * 60_000 };

function guard(deps: Deps, staffId: number, ip: string): Guard {
  return attemptGuard(
    deps.database.db,
    [
      // Cleared by time only: neither the member's password nor a right code buys more guesses.
      factorGuesses(owner(staffId), GUESSES.perMember, GUESSES.windowMs),
      { key: `staff-ip:${addressKey(ip)}`, limit: GUESSES.perAddress, onSuccess: 'release' },
    ],
    GUESSES.windowMs,
    deps.clock.now(),
  );
}

/** What a member has set up (a flagged passkey counts: it is no reason to drop to a password). */
export async function staffFactors(
  deps: Deps,
  staffId: number,
): Promise<{ totp: boolean; passkeys: number }> {
  const f = await factorsOf(context(deps), owner(staffId));
  return { totp: f.totp, passkeys: f.passkeys.length };
}

/** A wrong code, a refused passkey or a locked-out member: audited, then refused as it was. */
async function refusedFactor<T>(
  deps: Deps,
  member: StaffMember,
  ip: string,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ApiError)
      await auditRefusal(deps.database, staffActor(member), deps.clock.now, {
        action: 'staff:factorFailed',
        targetType: 'staff',
        targetId: member.id,
        after: { status: err.status, address: addressKey(ip) },
        reason: err.key,
      });
    throw err;
  }
}

/** The step's outcome, audited: a first factor set up, a sign-in completed, or a step-up. */
async function given(
  deps: Deps,
  member: StaffMember,
  session: StaffSession,
  ip: string,
  action: string,
  kind: string,
): Promise<{ stage: Stage; freshUntil: number }> {
  const result = await factorGiven(deps, session);
  await audited(deps.database, staffActor(member), deps.clock.now, async () => ({
    result: undefined,
    entry: {
      action,
      targetType: 'staff',
      targetId: member.id,
      before: { stage: session.stage },
      after: { stage: result.stage, factor: kind, address: addressKey(ip) },
    },
  }));
  return result;
}

export function totpBegin(deps: Deps, member: StaffMember) {
  return beginTotp(context(deps), owner(member.id), { issuer: 'Bourse back office', account: member.login });
}

export async function totpConfirm(
  deps: Deps,
  member: StaffMember,
  session: StaffSession,
  code: string,
  ip: string,
) {
  await refusedFactor(deps, member, ip, () =>
    confirmTotp(context(deps), owner(member.id), code, guard(deps, member.id, ip)),
  );
  return given(deps, member, session, ip, 'staff:enrol', 'totp');
}

export function passkeyRegisterOptions(deps: Deps, member: StaffMember) {
  return passkeyRegistrationOptions(context(deps), owner(member.id), {
    name: member.login,
    displayName: member.name,
  });
}

export async function passkeyRegister(
  deps: Deps,
  member: StaffMember,
  session: StaffSession,
  response: unknown,
  ip: string,
) {
  await addPasskey(context(deps), owner(member.id), response as RegistrationResponseJSON, 'Back office');
  return given(deps, member, session, ip, 'staff:enrol', 'passkey');
}

export function passkeyOptions(deps: Deps, member: StaffMember) {
  return passkeyAuthenticationOptions(context(deps), owner(member.id));
}

/** The second step of a sign-in, or a step-up: one proof, under the member's lockout. */
export async function verifyFactor(
  deps: Deps,
  member: StaffMember,
  session: StaffSession,
  proof: FactorProof,
  ip: string,
) {
  const done = await refusedFactor(deps, member, ip, () =>
    verifySecondFactor(
      context(deps),
      owner(member.id),
      'passkey' in proof
        ? { passkey: proof.passkey as AuthenticationResponseJSON }
        : 'code' in proof
          ? { code: proof.code }
          : (() => {
              throw new ApiError('errors.proofMissing', 400);
            })(),
      guard(deps, member.id, ip),
    ),
  );
  return given(
    deps,
    member,
    session,
    ip,
    session.stage === 'full' ? 'staff:stepUp' : 'staff:signIn',
    done.kind,
  );
}
