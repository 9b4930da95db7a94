import { randomBytes } from 'node:crypto';
import { type FactorContext, type FactorOwner, ownerKey } from './context';

/** A WebAuthn ceremony must finish within this (the browser's own timeout is the same). */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = 'register' | 'authenticate';

/** A new random challenge (32 bytes, base64url) for `owner`, kept until used or expired. */
export async function newChallenge(
  ctx: FactorContext,
  owner: FactorOwner,
  purpose: ChallengePurpose,
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
    })
    .execute();
  return challenge;
}

/**
 * Uses up `challenge` (true) if it is the owner's, for this purpose, unexpired and never used:
 * one guarded update, so of two requests carrying it (a replayed response, a double tap) exactly
 * one gets it.
 */
export async function takeChallenge(
  ctx: FactorContext,
  owner: FactorOwner,
  purpose: ChallengePurpose,
  challenge: string,
): Promise<boolean> {
  const res = await ctx.db
    .updateTable('factor_challenges')
    .set({ used_at: ctx.now })
    .where('challenge', '=', challenge)
    .where('owner', '=', ownerKey(owner))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
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
