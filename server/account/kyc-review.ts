import type { Kysely } from 'kysely';
import { KYC_REJECTION_REASONS, type KycRejectionReason } from '#shared/backoffice';
import { KYC_STATUS } from '#shared/status';
import { assertClaim, type DecisionOptions, overrideOf } from '../approvals/people';
import { plainText } from '../content/sanitize';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { conflict, invalid, notFound } from '../lib/errors';

/**
 * Real-name decisions: approve, reject with a reason code the customer's app words in their
 * language plus the officer's own text, and `photos` — the reason that asks for new photos. The back
 * office's routes and the console's `kyc:approve|reject` call these same functions. Each decision
 * is a guarded change from "under review", so two officers deciding at once decide once; a claimed
 * case is decided by its claimant or an admin who says why. What the officer reads first (the case,
 * its photos, its warnings) is the back office's view, backoffice/kyc.ts.
 */

const NOTE_MAX = 500;

/** A real-name case's row with the customer's phone: what the view shows and a decision keeps as before. */
export async function caseRow(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('kyc')
    .innerJoin('users', 'users.id', 'kyc.user_id')
    .select([
      'kyc.user_id',
      'users.phone',
      'kyc.status',
      'kyc.real_name',
      'kyc.id_type',
      'kyc.id_number',
      'kyc.created_at',
      'kyc.updated_at',
      'kyc.reason',
      'kyc.note',
      'kyc.id_number_img',
      'kyc.id_number_img_two',
    ])
    .where('kyc.user_id', '=', userId)
    .executeTakeFirst();
}

function snapshot(row: NonNullable<Awaited<ReturnType<typeof caseRow>>>) {
  return { status: row.status, reason: row.reason, note: row.note };
}

async function decide(
  deps: Deps,
  actor: Actor,
  userId: number,
  next: { status: number; reason: KycRejectionReason | null; note: string | null },
  action: string,
  options: DecisionOptions,
): Promise<void> {
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const before = await caseRow(trx, userId);
    if (!before) throw notFound();
    const override = overrideOf(await assertClaim(trx, ['kyc'], String(userId), actor, options.override));
    const changed = await trx
      .updateTable('kyc')
      .set({ status: next.status, reason: next.reason, note: next.note, updated_at: deps.clock.now() })
      .where('user_id', '=', userId)
      .where('status', '=', KYC_STATUS.underReview)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw conflict('ops.errors.notWaiting');
    await trx
      .deleteFrom('work_claims')
      .where('item_type', '=', 'kyc')
      .where('item_id', '=', String(userId))
      .execute();
    return {
      result: undefined,
      entry: {
        action,
        targetType: 'kyc',
        targetId: userId,
        customerId: userId,
        before: snapshot(before),
        after: { ...next, ...override },
        reason: next.reason,
      },
    };
  });
}

export function approveKyc(
  deps: Deps,
  actor: Actor,
  userId: number,
  options: DecisionOptions = {},
): Promise<void> {
  return decide(
    deps,
    actor,
    userId,
    { status: KYC_STATUS.approved, reason: null, note: null },
    'kyc:approve',
    options,
  );
}

/** Rejects with a reason code (`photos` asks for new photos) and optional text the customer reads. */
export function rejectKyc(
  deps: Deps,
  actor: Actor,
  userId: number,
  reason: string,
  text: string | undefined,
  options: DecisionOptions = {},
): Promise<void> {
  if (!(KYC_REJECTION_REASONS as readonly string[]).includes(reason)) throw invalid('ops.errors.reason');
  const note = plainText(text ?? '').slice(0, NOTE_MAX) || null;
  if (reason === 'other' && !note) throw invalid('ops.errors.reasonText');
  return decide(
    deps,
    actor,
    userId,
    { status: KYC_STATUS.rejected, reason: reason as KycRejectionReason, note },
    reason === 'photos' ? 'kyc:newPhotos' : 'kyc:reject',
    options,
  );
}
