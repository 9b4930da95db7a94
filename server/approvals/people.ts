import type { Kysely } from 'kysely';
import type { WorkType } from '#shared/backoffice';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import type { Actor } from '../lib/audit-log';
import { ApiError } from '../lib/errors';

/**
 * Maker-checker that knows people (DESIGN rule 9). A second approval is worth something only if
 * the checker is really someone else:
 * - never the maker; never the console (it may make, never check: whoever runs it holds the
 *   database and can name any operator with OPS_OPERATOR);
 * - never a member the maker created or re-enrolled within OPS_RELATED_DAYS, nor one created or
 *   re-enrolled in that time by such a member (followed up the chain): an admin who adds an
 *   "approver" cannot approve their own work with it. Every console operator counts as one person
 *   here, for the same reason as above.
 * And a claimed item is decided by its claimant, or by an admin who says why (the reason goes to
 * the audit entry); the console, the trusted door, may act on a claimed item, on the record.
 */

const sameMaker = (a: string, b: string) => a === b || (a.startsWith('cli:') && b.startsWith('cli:'));

/** How far up "who made whom" is followed. */
const DEPTH = 8;

/** Refuses `checker` the check of `maker`'s work (403), or returns. */
export async function assertMayCheck(
  db: Kysely<DB>,
  deps: Deps,
  maker: string,
  checker: Actor,
): Promise<void> {
  if (checker.staffId === null) throw new ApiError('ops.errors.consoleChecks', 403);
  if (sameMaker(checker.key, maker)) throw new ApiError('ops.errors.ownAction', 403);
  const since = deps.clock.now() - deps.config.ops.relatedMs;
  const seen = new Set<number>([checker.staffId]);
  let frontier = [checker.staffId];
  for (let depth = 0; depth < DEPTH && frontier.length > 0; depth += 1) {
    const rows = await db
      .selectFrom('staff')
      .select(['id', 'created_by', 'created_at', 'enrolled_by', 'enrol_issued_at'])
      .where('id', 'in', frontier)
      .execute();
    const next: number[] = [];
    for (const r of rows) {
      const makers: Array<[string | null, number | null]> = [
        [r.created_by, r.created_at],
        [r.enrolled_by, r.enrol_issued_at],
      ];
      for (const [by, at] of makers) {
        if (by === null || at === null || at < since) continue;
        if (sameMaker(by, maker)) throw new ApiError('ops.errors.makerRelated', 403);
        const m = /^staff:(\d+)$/.exec(by);
        const id = m ? Number(m[1]) : null;
        if (id !== null && !seen.has(id)) {
          seen.add(id);
          next.push(id);
        }
      }
    }
    frontier = next;
  }
}

/** A decision taken on a claimed item by someone else: whose claim, and why (for the audit entry). */
export interface ClaimOverride {
  claimedBy: { id: number; name: string };
  reason: string;
}

/** What a decision may carry: an admin's reason for deciding an item someone else claimed. */
export interface DecisionOptions {
  override?: string | null;
}

/** The claim an admin decided over, as the audit entry keeps it. */
export const overrideOf = (o: ClaimOverride | null) =>
  o ? { override: { claimedBy: o.claimedBy.id, claimedName: o.claimedBy.name, reason: o.reason } } : {};

/**
 * Whether `actor` may decide the item (of any of `types`) with id `id`: unclaimed, or claimed by
 * them — else only an admin with `reason`, or the console. Answers the override to record, if any.
 */
export async function assertClaim(
  db: Kysely<DB>,
  types: readonly WorkType[],
  id: string,
  actor: Actor,
  reason?: string | null,
): Promise<ClaimOverride | null> {
  const claim = await db
    .selectFrom('work_claims')
    .innerJoin('staff', 'staff.id', 'work_claims.staff_id')
    .select(['staff.id', 'staff.name'])
    .where('work_claims.item_type', 'in', [...types])
    .where('work_claims.item_id', '=', id)
    .executeTakeFirst();
  if (!claim || claim.id === actor.staffId) return null;
  const why = (reason ?? '').trim().slice(0, 500);
  if (actor.staffId === null) return { claimedBy: claim, reason: why || 'console' };
  if (actor.role === 'admin' && why) return { claimedBy: claim, reason: why };
  throw new ApiError(actor.role === 'admin' ? 'ops.errors.overrideReason' : 'ops.errors.claimedByOther', 403);
}
