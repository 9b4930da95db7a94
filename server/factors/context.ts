import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

/**
 * Who a factor belongs to: a customer (`user`) or, for the back office, a member of staff
 * (`staff`). Stored as the text key `kind:id`, so the factor tables need no foreign key to either
 * table of accounts.
 */
export interface FactorOwner {
  kind: 'user' | 'staff';
  id: number;
}

export const ownerKey = (owner: FactorOwner): string => `${owner.kind}:${owner.id}`;

/** The relying party and the key, from configuration (Config['twoFactor']). */
export interface FactorSettings {
  /** WebAuthn relying-party id: the app's domain. */
  rpId: string;
  rpName: string;
  /** The exact origins an assertion may come from. */
  origins: string[];
  /** 32 bytes: seals TOTP secrets, keys the recovery codes' hashes. */
  key: Buffer;
}

/** What every factor function works in: a database (or a transaction), the time, the settings. */
export interface FactorContext {
  db: Kysely<DB>;
  now: number;
  settings: FactorSettings;
}

/**
 * The owner's lockout, given by the caller: runs `verify` as one guessed attempt and answers its
 * result, or refuses (429 `errors.tooManyAttempts`) when the owner is locked. `attemptGuard` builds
 * one from lib/attempts for any keys; customers and staff count the owner's `factorGuesses` (apart
 * from passwords, cleared by time only) and their address.
 */
export type Guard = (verify: () => Promise<boolean>) => Promise<boolean>;
