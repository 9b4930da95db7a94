import { randomBytes } from 'node:crypto';
import { type FactorContext, type FactorOwner, ownerKey } from './context';

/** A WebAuthn ceremony must finish within this (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = 'register' | 'authenticate';

/**
 * Who may finish an enrolment begun now: the session it was begun in (sha256 of its
 * token), and whether a fresh proof of an existing factor came first (`gated`). One begun ungated
 * — the owner had no factor then — cannot finish once the owner has one.
 */
export interface EnrolmentBinding {
  session: string;
  gated: boolean;
}

/** A new random challenge (32 bytes, base64url) for `owner`, kept until used or expired. */
export async function newChallenge(
  ctx: FactorContext,
  owner: FactorOwner,
  purpose: ChallengePurpose,
  binding?: EnrolmentBinding,
): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  // Expired challenges go as new ones are made: the table holds minutes of them, never more.
  await ctx.db.deleteFrom('factor_challenges').where('expires_at', '<', ctx.now).execute();
  await ctx.db
    .insertInto('factor_challenges')
    .values({
      challenge,
      owner: ownerKey(owner),
      purpose,
      expires_at: ctx.now + CHALLENGE_TTL_MS,
      used_at: null,
      session: binding?.session ?? null,
      gated: binding?.gated ? 1 : 0,
    })
    .execute();
  return challenge;
}

/**
 * Uses up `challenge` if it is the owner's, for this purpose, unexpired and never used (and, given
 * `session`, made for that session): one guarded update, so of two requests carrying it (a
 * replayed response, a double tap) exactly one gets it. Answers whether it was gated, or null
 * when it was not there to take.
 */
export async function takeChallenge(
  ctx: FactorContext,
  owner: FactorOwner,
  purpose: ChallengePurpose,
  challenge: string,
  session?: string,
): Promise<{ gated: boolean } | null> {
  const row = await ctx.db
    .updateTable('factor_challenges')
    .set({ used_at: ctx.now })
    .where('challenge', '=', challenge)
    .where('owner', '=', ownerKey(owner))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.now)
    .$if(session !== undefined, (q) => q.where('session', '=', session as string))
    .returning('gated')
    .executeTakeFirst();
  return row ? { gated: Number(row.gated) === 1 } : null;
}

/**
 * The owner got a factor: enrolments begun ungated elsewhere die — registration
 * challenges and a pending app secret of other sessions (`keep`: the caller's own session).
 */
export async function endUngatedEnrolments(ctx: FactorContext, owner: FactorOwner, keep: string) {
  const key = ownerKey(owner);
  await ctx.db
    .deleteFrom('factor_challenges')
    .where('owner', '=', key)
    .where('purpose', '=', 'register')
    .where('gated', '=', 0)
    .where((eb) => eb.or([eb('session', 'is', null), eb('session', '!=', keep)]))
    .execute();
  await ctx.db
    .deleteFrom('factor_totp')
    .where('owner', '=', key)
    .where('confirmed_at', 'is', null)
    .where('gated', '=', 0)
    .where((eb) => eb.or([eb('session', 'is', null), eb('session', '!=', keep)]))
    .execute();
}

/** The challenge a WebAuthn response answers (from its clientDataJSON), or null if unreadable. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' && data.challenge.length <= 128 ? data.challenge : null;
  } catch {
    return null;
  }
}
