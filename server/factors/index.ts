import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { type AttemptKey, attempt } from '../lib/attempts';
import { ApiError } from '../lib/errors';
import { type FactorContext, type FactorOwner, type FactorSettings, type Guard, ownerKey } from './context';
import { listPasskeys, type Passkey, verifyPasskey } from './passkeys';
import { recoveryCodesLeft, redeemRecoveryCode } from './recovery';
import { totpEnabled, verifyTotp } from './totp';

export { type EnrolmentBinding, endUngatedEnrolments } from './challenges';
export { ownerHasFactor } from './owned';
export {
  addPasskey,
  FlaggedPasskey,
  listPasskeys,
  MAX_PASSKEYS,
  PASSKEY_NAME_MAX,
  type Passkey,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  removePasskey,
  renamePasskey,
  verifyPasskey,
} from './passkeys';
export {
  newRecoveryCodes,
  normaliseRecovery,
  RECOVERY_CODES,
  recoveryCodesLeft,
  recoverySetMadeAt,
  redeemRecoveryCode,
  removeRecoveryCodes,
} from './recovery';
export {
  beginTotp,
  confirmTotp,
  removeTotp,
  type TotpSetup,
  totpCode,
  totpConfirmedAt,
  totpEnabled,
  verifyTotp,
} from './totp';
/*
 * Second factors for any kind of account (customers now, staff next): passkeys, an authenticator
 * app, recovery codes, and the lockout their guesses count against. The interface is described in
 * README.md; everything a caller needs is exported here.
 */
export { type FactorContext, type FactorOwner, type FactorSettings, type Guard, ownerKey };

/** What an owner has set up. */
export interface Factors {
  passkeys: Passkey[];
  totp: boolean;
  recoveryLeft: number;
}

export async function factorsOf(ctx: FactorContext, owner: FactorOwner): Promise<Factors> {
  const [passkeys, totp, recoveryLeft] = await Promise.all([
    listPasskeys(ctx, owner),
    totpEnabled(ctx, owner),
    recoveryCodesLeft(ctx, owner),
  ]);
  return { passkeys, totp, recoveryLeft };
}

/**
 * Has set up a second factor: a confirmed app or a passkey — a flagged one too: the owner asked for
 * two factors, and a copied passkey is no reason to fall back to the password alone (the recovery
 * codes are then the way in).
 */
export const hasFactor = (f: Factors) => f.totp || f.passkeys.length > 0;

/** One proof of a second factor: a passkey's assertion, an app's code, or a recovery code. */
export type Proof = { passkey: AuthenticationResponseJSON } | { code: string } | { recovery: string };
export type ProofKind = 'passkey' | 'totp' | 'recovery';

/**
 * Verifies whichever proof was given, as one attempt of the owner's `guard`; answers which kind
 * (and the passkey) it was. Refusals throw ApiError (a wrong code, a replayed or foreign
 * assertion, `FlaggedPasskey`, 429 when locked).
 */
export async function verifySecondFactor(
  ctx: FactorContext,
  owner: FactorOwner,
  proof: Proof,
  guard: Guard,
): Promise<{ kind: ProofKind; passkey?: Passkey }> {
  if ('passkey' in proof && proof.passkey) {
    return { kind: 'passkey', passkey: await verifyPasskey(ctx, owner, proof.passkey, guard) };
  }
  if ('code' in proof && typeof proof.code === 'string') {
    await verifyTotp(ctx, owner, proof.code, guard);
    return { kind: 'totp' };
  }
  if ('recovery' in proof && typeof proof.recovery === 'string') {
    await redeemRecoveryCode(ctx, owner, proof.recovery, guard);
    return { kind: 'recovery' };
  }
  throw new ApiError('errors.proofMissing', 400);
}

/**
 * The owner's count of second-factor guesses — app codes, recovery codes, passkey tries — kept
 * apart from any password's and cleared by time only: a right answer gives back its own attempt
 * and nothing more, so neither a right password nor the owner's right code between an intruder's
 * wrong ones buys more guesses within the window.
 */
export function factorGuesses(owner: FactorOwner, limit: number, windowMs: number): AttemptKey {
  return { key: `factor:${ownerKey(owner)}`, limit, onSuccess: 'release', windowMs };
}

/**
 * A lockout from attempt counters (lib/attempts.ts) for any keys: each guess reserves an attempt
 * on every key before it is checked, so racing guesses never exceed the limit. Customers and staff
 * pass the owner's `factorGuesses` and their address's key.
 */
export function attemptGuard(db: Kysely<DB>, keys: AttemptKey[], windowMs: number, now: number): Guard {
  return (verify) => attempt(db, keys, windowMs, now, verify);
}
