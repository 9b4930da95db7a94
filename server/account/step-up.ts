import type { Kysely } from 'kysely';
import { ERR } from '#shared/contract/define';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ownerHasFactor } from '../factors/index';
import { sha256 } from '../lib/auth';
import { ApiError } from '../lib/errors';

/**
 * Step-up: a change a stolen session must not make alone — a factor added, a bank card
 * added or edited, a withdrawal, a new login password, the first transaction password — needs a
 * fresh proof of a factor the account already has. The proof is given to `stepUp`
 * (account/two-factor.ts), which marks the session (`sessions.step_up_at`); the change takes that
 * mark within `config.twoFactor.stepUpMs`, and uses it up: one proof, one change. An account
 * without a factor has nothing to prove (the demo without REQUIRE_2FA, as SPEC has it).
 */

/** Marks the session behind `token` as having just proved a factor. */
export async function markSteppedUp(db: Kysely<DB>, token: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ step_up_at: now }).where('token_hash', '=', sha256(token)).execute();
}

/** What taking a step-up did: `giveBack` returns an unused mark when the change was refused. */
export interface StepUpTaken {
  needed: boolean;
  giveBack(): Promise<void>;
}

const NOTHING: StepUpTaken = { needed: false, giveBack: async () => {} };

/**
 * Uses up the session's fresh step-up, or refuses (403 `errors.stepUpRequired`) — unless the
 * account has no factor to prove. One guarded update: of two changes racing with one proof, one
 * gets it. In a money route's transaction (`db`) a refusal after it rolls it back; elsewhere the
 * caller gives it back (`giveBack`) when the change it was taken for was refused.
 */
export async function takeStepUp(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  token: string,
): Promise<StepUpTaken> {
  if (!(await ownerHasFactor(db, { kind: 'user', id: userId }))) return NOTHING;
  const hash = sha256(token);
  const now = deps.clock.now();
  const row = await db
    .selectFrom('sessions')
    .select('step_up_at')
    .where('token_hash', '=', hash)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const at = row?.step_up_at == null ? null : Number(row.step_up_at);
  if (at === null || now - at >= deps.config.twoFactor.stepUpMs) throw new ApiError(ERR.stepUpRequired, 403);
  const taken = await db
    .updateTable('sessions')
    .set({ step_up_at: null })
    .where('token_hash', '=', hash)
    .where('step_up_at', '=', at)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) throw new ApiError(ERR.stepUpRequired, 403);
  return {
    needed: true,
    async giveBack() {
      await db
        .updateTable('sessions')
        .set({ step_up_at: at })
        .where('token_hash', '=', hash)
        .where('step_up_at', 'is', null)
        .execute();
    },
  };
}

/**
 * Runs `change` with the session's step-up taken (outside a transaction): a refusal of the change
 * (a 4xx ApiError — a bad card number, a wrong old password) gives the proof back, so the user
 * corrects the input without proving again. lib/route.ts does the same for `stepUp` entries.
 */
export async function withStepUp<T>(
  deps: Deps,
  userId: number,
  token: string,
  change: (taken: StepUpTaken) => Promise<T>,
): Promise<T> {
  const taken = await takeStepUp(deps, deps.database.db, userId, token);
  return givenBackIfRefused(taken, () => change(taken));
}

/** Runs `change`; a refusal of it (a 4xx ApiError) gives `taken` back. */
export async function givenBackIfRefused<T>(taken: StepUpTaken, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (err instanceof ApiError && err.status < 500 && err.key !== ERR.stepUpRequired) await taken.giveBack();
    throw err;
  }
}
