import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { isUniqueViolation } from '../lib/db-errors';
import { ApiError, notFound } from '../lib/errors';
import {
  CHALLENGE_TTL_MS,
  challengeOf,
  type EnrolmentBinding,
  newChallenge,
  takeChallenge,
} from './challenges';
import { type FactorContext, type FactorOwner, type Guard, ownerKey } from './context';
import { ownerHasFactor } from './owned';
import { keyedHash } from './secrets';

/**
 * The WebAuthn library (and the certificate parsing under it) is loaded with the first passkey
 * ceremony, not with the server: about half a second of a core at every start and console run.
 */
const webauthn = () => import('@simplewebauthn/server');

/** A passkey as its owner sees it; `public_key` lets the owner's device check an unlock offline. */
export interface Passkey {
  id: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
  /** Its signature counter went backwards once (a copied authenticator): refused until removed. */
  flagged: boolean;
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  transports: string[];
  /** Synced between the owner's devices by its provider (iCloud Keychain, Google Password Manager). */
  backed_up: boolean;
}

/** Passkeys one owner may hold. */
export const MAX_PASSKEYS = 10;
export const PASSKEY_NAME_MAX = 40;

/*
 * ES256 and RS256: what platform authenticators make, and what every browser's WebCrypto can check,
 * so the owner's device can verify an assertion itself when offline (the app lock).
 */
const ALGORITHMS = [-7, -257];

const refused = () => new ApiError('errors.passkeyRefused', 400);

type Row = {
  id: number;
  name: string;
  created_at: number | string;
  last_used_at: number | string | null;
  flagged_at: number | string | null;
  credential_id: string;
  public_key: string;
  counter: number | string;
  transports: string;
  backed_up: number;
};

const asPasskey = (r: Row): Passkey => ({
  id: Number(r.id),
  name: r.name,
  created_at: Number(r.created_at),
  last_used_at: r.last_used_at === null ? null : Number(r.last_used_at),
  flagged: r.flagged_at !== null,
  credential_id: r.credential_id,
  public_key: r.public_key,
  counter: Number(r.counter),
  transports: JSON.parse(r.transports) as string[],
  backed_up: r.backed_up === 1,
});

const COLUMNS = [
  'id',
  'name',
  'created_at',
  'last_used_at',
  'flagged_at',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'backed_up',
] as const;

export async function listPasskeys(ctx: FactorContext, owner: FactorOwner): Promise<Passkey[]> {
  const rows = await ctx.db
    .selectFrom('factor_passkeys')
    .select(COLUMNS)
    .where('owner', '=', ownerKey(owner))
    .orderBy('id')
    .execute();
  return rows.map(asPasskey);
}

/** A passkey's name: trimmed, 1–40 characters, no control characters. */
export function passkeyName(name: string): string {
  const clean = name.replace(/\p{Cc}/gu, '').trim();
  if (clean.length === 0 || [...clean].length > PASSKEY_NAME_MAX)
    throw new ApiError('errors.passkeyName', 400);
  return clean;
}

/**
 * Options for `navigator.credentials.create()`: a fresh single-use challenge, user verification
 * required, the owner's passkeys excluded (an authenticator that has one already says so). The
 * user handle is an opaque, stable id per owner (a keyed hash, not the account number). With a
 * `binding`, only its session may add the passkey (`addPasskey`'s `session`).
 */
export async function passkeyRegistrationOptions(
  ctx: FactorContext,
  owner: FactorOwner,
  account: { name: string; displayName: string },
  binding?: EnrolmentBinding,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listPasskeys(ctx, owner);
  if (existing.length >= MAX_PASSKEYS) throw new ApiError('errors.passkeyLimit', 409);
  const challenge = await newChallenge(ctx, owner, 'register', binding);
  return (await webauthn()).generateRegistrationOptions({
    rpName: ctx.settings.rpName,
    rpID: ctx.settings.rpId,
    userName: account.name,
    userDisplayName: account.displayName,
    userID: Buffer.from(keyedHash(`handle:${ownerKey(owner)}`, ctx.settings.key), 'base64url').subarray(
      0,
      16,
    ),
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
}

/**
 * Verifies a `create()` response against its challenge (used up here, whatever the outcome), the
 * configured origins and RP id, with user verification; keeps the credential under `name`. Given
 * `session`, the challenge must have been made for it (a bound one, `passkeyRegistrationOptions`),
 * and one made ungated is refused once the owner has a factor (`errors.enrolEnded`).
 */
export async function addPasskey(
  ctx: FactorContext,
  owner: FactorOwner,
  response: RegistrationResponseJSON,
  name: string,
  session?: string,
): Promise<Passkey> {
  const label = passkeyName(name);
  const challenge = challengeOf(response.response.clientDataJSON);
  const taken = challenge ? await takeChallenge(ctx, owner, 'register', challenge, session) : null;
  if (!challenge || !taken) throw new ApiError('errors.challengeExpired', 400);
  if (session !== undefined && !taken.gated && (await ownerHasFactor(ctx.db, owner)))
    throw new ApiError('errors.enrolEnded', 409);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ctx.settings.origins,
      expectedRPID: ctx.settings.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    throw refused();
  }
  if (!verified.verified) throw refused();
  const { credential, credentialBackedUp } = verified.registrationInfo;
  if ((await listPasskeys(ctx, owner)).length >= MAX_PASSKEYS) throw new ApiError('errors.passkeyLimit', 409);
  try {
    const row = await ctx.db
      .insertInto('factor_passkeys')
      .values({
        owner: ownerKey(owner),
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? response.response.transports ?? []),
        backed_up: credentialBackedUp ? 1 : 0,
        name: label,
        created_at: ctx.now,
        last_used_at: null,
        flagged_at: null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return asPasskey(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('errors.passkeyExists', 409);
    throw err;
  }
}

/** Options for `navigator.credentials.get()` with the owner's usable passkeys; none: refused. */
export async function passkeyAuthenticationOptions(
  ctx: FactorContext,
  owner: FactorOwner,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const usable = (await listPasskeys(ctx, owner)).filter((p) => !p.flagged);
  if (usable.length === 0) throw new ApiError('errors.passkeyNone', 400);
  const challenge = await newChallenge(ctx, owner, 'authenticate');
  return (await webauthn()).generateAuthenticationOptions({
    rpID: ctx.settings.rpId,
    challenge: Buffer.from(challenge, 'base64url'),
    timeout: CHALLENGE_TTL_MS,
    allowCredentials: usable.map((p) => ({ id: p.credential_id, transports: p.transports })),
    userVerification: 'required',
  });
}

/** A passkey's counter went backwards: it is refused from now on; the caller may tell the owner. */
export class FlaggedPasskey extends ApiError {
  constructor(
    readonly passkey: Passkey,
    /** Flagged by this verification (false: it was already). */
    readonly fresh: boolean,
  ) {
    super('errors.passkeyFlagged', 400);
  }
}

/**
 * Verifies a `get()` response as one attempt of `guard` (the owner's lockout): its challenge is
 * the owner's, unexpired and unused (used up now: a replayed response is refused), the credential
 * is the owner's and not flagged, the signature checks against its public key for one of the
 * configured origins and the RP id, with user verification; and its counter moved forward — a
 * counter at or below the stored one (both not zero) is a copied authenticator: the passkey is
 * flagged and refused (`FlaggedPasskey`). Answers the passkey used; refusals throw.
 */
export async function verifyPasskey(
  ctx: FactorContext,
  owner: FactorOwner,
  response: AuthenticationResponseJSON,
  guard: Guard,
): Promise<Passkey> {
  let outcome: ApiError = refused();
  let used = null as Passkey | null;
  const ok = await guard(async () => {
    const challenge = challengeOf(response.response.clientDataJSON);
    if (!challenge || !(await takeChallenge(ctx, owner, 'authenticate', challenge))) {
      outcome = new ApiError('errors.challengeExpired', 400);
      return false;
    }
    const row = await ctx.db
      .selectFrom('factor_passkeys')
      .select(COLUMNS)
      .where('owner', '=', ownerKey(owner))
      .where('credential_id', '=', response.id)
      .executeTakeFirst();
    if (!row) {
      outcome = new ApiError('errors.passkeyUnknown', 400);
      return false;
    }
    const passkey = asPasskey(row);
    if (passkey.flagged) {
      outcome = new FlaggedPasskey(passkey, false);
      return false;
    }
    let newCounter: number;
    try {
      const result = await (await webauthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: ctx.settings.origins,
        expectedRPID: ctx.settings.rpId,
        // Counter 0 here: the library would refuse a low counter before checking the signature;
        // flagging is done below, once the signature proves the response came from this key.
        credential: {
          id: passkey.credential_id,
          publicKey: Buffer.from(passkey.public_key, 'base64url'),
          counter: 0,
          transports: passkey.transports,
        },
        requireUserVerification: true,
      });
      if (!result.verified) return false;
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      return false;
    }
    if ((newCounter > 0 || passkey.counter > 0) && newCounter <= passkey.counter) {
      await ctx.db
        .updateTable('factor_passkeys')
        .set({ flagged_at: ctx.now })
        .where('id', '=', passkey.id)
        .where('flagged_at', 'is', null)
        .execute();
      outcome = new FlaggedPasskey({ ...passkey, flagged: true }, true);
      return false;
    }
    // Only forward: of two verifications racing with one counter value, one moves it.
    const moved = await ctx.db
      .updateTable('factor_passkeys')
      .set({ counter: newCounter, last_used_at: ctx.now })
      .where('id', '=', passkey.id)
      .where('flagged_at', 'is', null)
      .where((eb) => (newCounter === 0 ? eb('counter', '=', 0) : eb('counter', '<', newCounter)))
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return false;
    used = { ...passkey, counter: newCounter, last_used_at: ctx.now };
    return true;
  });
  if (!ok || !used) throw outcome;
  return used;
}

export async function renamePasskey(
  ctx: FactorContext,
  owner: FactorOwner,
  id: number,
  name: string,
): Promise<void> {
  const res = await ctx.db
    .updateTable('factor_passkeys')
    .set({ name: passkeyName(name) })
    .where('id', '=', id)
    .where('owner', '=', ownerKey(owner))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw notFound();
}

/** Removes one of the owner's passkeys; answers it (for the notice), or 404 for another's. */
export async function removePasskey(ctx: FactorContext, owner: FactorOwner, id: number): Promise<Passkey> {
  const row = await ctx.db
    .deleteFrom('factor_passkeys')
    .where('id', '=', id)
    .where('owner', '=', ownerKey(owner))
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw notFound();
  return asPasskey(row);
}
