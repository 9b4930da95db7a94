import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import {
  type CardView,
  type CustomerName,
  PAYOUT_REJECTION_REASONS,
  type PayoutApprovalView,
  type PayoutRow,
  type Payouts,
} from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { WITHDRAW_STATUS } from '#shared/status';
import { namesOf } from '../account/customer-names';
import { assertClaim, assertMayCheck, type DecisionOptions, overrideOf } from '../approvals/people';
import { plainText } from '../content/sanitize';
import type { DB, PayoutApprovalsTable } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { conflict, invalid, notFound } from '../lib/errors';
import { maskTail } from '../lib/mask';
import { payWithdrawal, refundWithdrawal, releaseWithdrawal } from './settlement';
import { payoutDayTotal } from './withdraw';

/**
 * Payouts: held withdrawals paid, released to the payment rail or rejected (refunded)
 * with a reason. When the customer's payouts of the last 24 h with this one (its day total) pass
 * PAYOUT_APPROVAL_ABOVE, a payout is two people's decision (maker-checker, ASVS 2.3.5): the first
 * member's "pay" records an approval request bound to the exact payout — withdrawal, customer,
 * amount, and the card as it was (number, holder, IFSC, change time) — and a second member checks
 * it: never the maker, never the console, never someone the maker created or re-enrolled lately
 * (approvals/people.ts); any change to what it is bound to voids it. Paying twice is impossible: the approval
 * moves awaiting → approved and the withdrawal n → y, each by a guarded update in one transaction,
 * so of two approvers racing one pays and the other is refused. A claimed payout is decided by its
 * claimant, or by an admin who says why. The console's `withdraw:pay|release|reject` run these same
 * functions; it has no approve.
 */

type Approval = Selectable<PayoutApprovalsTable>;

async function payoutOf(db: Kysely<DB>, id: number, lock: boolean) {
  let q = db
    .selectFrom('withdrawals')
    .innerJoin('bank_cards', 'bank_cards.id', 'withdrawals.bank_id')
    .innerJoin('users', 'users.id', 'withdrawals.user_id')
    .select([
      'withdrawals.id',
      'withdrawals.user_id',
      'users.phone',
      'users.frozen_at',
      'withdrawals.amount',
      'withdrawals.status',
      'withdrawals.hold',
      'withdrawals.created_at',
      'bank_cards.id as card_id',
      'bank_cards.bank',
      'bank_cards.bank_card',
      'bank_cards.bank_user',
      'bank_cards.ifsc',
      'bank_cards.status as card_status',
      'bank_cards.created_at as card_added',
      'bank_cards.updated_at as card_changed',
    ])
    .where('withdrawals.id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst();
}
type Payout = NonNullable<Awaited<ReturnType<typeof payoutOf>>>;

/** What an approval is bound to: the payout exactly as the maker saw it. */
export function bindingOf(p: Payout): string {
  const fields = [p.id, p.user_id, p.amount, p.card_id, p.bank_card, p.bank_user, p.ifsc, p.card_changed];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

function cardView(p: Payout): CardView {
  return {
    id: p.card_id,
    bank: p.bank,
    card: maskTail(p.bank_card),
    holder: p.bank_user,
    ifsc: p.ifsc,
    status: p.card_status,
    addedAt: p.card_added,
    changedAt: p.card_changed,
  };
}

export function approvalView(a: Approval, intact: boolean): PayoutApprovalView {
  return {
    id: a.id,
    withdrawalId: a.withdrawal_id,
    amount: fromMinor(a.amount),
    status: a.status,
    maker: a.maker,
    makerName: a.maker_name,
    createdAt: a.created_at,
    checkerName: a.checker_name,
    decidedAt: a.decided_at,
    intact,
  };
}

const needsApproval = (deps: Deps, dayTotal: number) => dayTotal > deps.config.ops.payoutApprovalAbove;

/** The customer's payouts in the 24 h up to this one, this one included (wallet/withdraw.ts). */
const dayTotalOf = (db: Kysely<DB>, p: Payout) => payoutDayTotal(db, p.user_id, p.created_at);

const PAYOUT_CLAIMS = ['withdrawal', 'approval'] as const;

function payoutRow(
  deps: Deps,
  p: Payout,
  approval: Approval | undefined,
  dayTotal: number,
  customer: CustomerName,
): PayoutRow {
  return {
    id: p.id,
    userId: p.user_id,
    phone: p.phone,
    customer,
    amount: fromMinor(p.amount),
    status: p.status,
    hold: p.hold,
    card: cardView(p),
    askedAt: p.created_at,
    dayTotal: fromMinor(dayTotal),
    needsApproval: needsApproval(deps, dayTotal),
    approval: approval ? approvalView(approval, approval.binding === bindingOf(p)) : null,
  };
}

/** Withdrawals of one customer or every one in progress, with their latest approval. */
export async function payoutRows(deps: Deps, filter: { userId?: number } = {}): Promise<PayoutRow[]> {
  const { db } = deps.database;
  let q = db.selectFrom('withdrawals').select(['id', 'user_id']).orderBy('id', 'desc').limit(200);
  q =
    filter.userId !== undefined
      ? q.where('user_id', '=', filter.userId)
      : q.where('status', '=', WITHDRAW_STATUS.inProgress);
  const found = await q.execute();
  const ids = found.map((r) => r.id);
  const names = await namesOf(
    db,
    found.map((r) => r.user_id),
  );
  const rows: PayoutRow[] = [];
  for (const id of ids) {
    const p = await payoutOf(db, id, false);
    if (!p) continue;
    const approval = await db
      .selectFrom('payout_approvals')
      .selectAll()
      .where('withdrawal_id', '=', id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    rows.push(payoutRow(deps, p, approval, await dayTotalOf(db, p), names.get(p.user_id)!));
  }
  return rows;
}

export async function payouts(deps: Deps): Promise<Payouts> {
  const rows = await payoutRows(deps);
  // Held ones first (they wait for a human), oldest first.
  rows.sort((a, b) => Number(b.hold !== null) - Number(a.hold !== null) || a.askedAt - b.askedAt);
  return { threshold: fromMinor(deps.config.ops.payoutApprovalAbove), rows };
}

const state = (p: Payout) => ({
  status: p.status,
  hold: p.hold,
  amount: fromMinor(p.amount),
  card: p.card_id,
});

/**
 * The payout still in progress, locked with its customer on PostgreSQL. `paying`: it is about to
 * leave (paid, approved or released to the rail) — refused while the customer is frozen
 * (account/freeze.ts), whose money stays until two members unfreeze them; a rejection (a refund)
 * stays possible.
 */
async function waitingPayout(trx: Kysely<DB>, deps: Deps, id: number, paying = false): Promise<Payout> {
  const p = await payoutOf(trx, id, deps.database.dialect === 'postgres');
  if (!p) throw notFound();
  if (p.status !== WITHDRAW_STATUS.inProgress) throw conflict('ops.errors.notWaiting');
  if (paying && p.frozen_at !== null) throw conflict('ops.errors.customerFrozen');
  return p;
}

/**
 * A member pays a withdrawal (marks it paid out). At or below the threshold it is paid now; above
 * it, an approval request bound to this exact payout is recorded and the payout waits for a second
 * member (`approvePayout`).
 */
export async function payPayout(
  deps: Deps,
  actor: Actor,
  id: number,
  options: DecisionOptions = {},
): Promise<{ paid: boolean; approval: PayoutApprovalView | null }> {
  const now = deps.clock.now();
  type Paid = { paid: boolean; approval: PayoutApprovalView | null };
  const { result } = await audited<Paid>(deps.database, actor, deps.clock.now, async (trx) => {
    const p = await waitingPayout(trx, deps, id, true);
    const override = await assertClaim(trx, PAYOUT_CLAIMS, String(id), actor, options.override);
    const dayTotal = await dayTotalOf(trx, p);
    if (!needsApproval(deps, dayTotal)) {
      if (!(await payWithdrawal(trx, id, now))) throw conflict('ops.errors.notWaiting');
      return {
        result: { paid: true, approval: null },
        entry: {
          action: 'payout:pay',
          targetType: 'withdrawal',
          targetId: id,
          customerId: p.user_id,
          before: state(p),
          after: { status: WITHDRAW_STATUS.paid, dayTotal: fromMinor(dayTotal), ...overrideOf(override) },
        },
      };
    }
    const waiting = await trx
      .selectFrom('payout_approvals')
      .select('id')
      .where('withdrawal_id', '=', id)
      .where('status', '=', 'awaiting')
      .executeTakeFirst();
    if (waiting) throw conflict('ops.errors.awaitingApproval');
    // Kept from the rail while it waits (a withdrawal asked before the threshold applied).
    if (p.hold === null)
      await trx.updateTable('withdrawals').set({ hold: 'wallet.hold.review' }).where('id', '=', id).execute();
    const approval = await trx
      .insertInto('payout_approvals')
      .values({
        withdrawal_id: id,
        user_id: p.user_id,
        amount: p.amount,
        bank_id: p.card_id,
        binding: bindingOf(p),
        status: 'awaiting',
        maker: actor.key,
        maker_name: actor.name,
        created_at: now,
        checker: null,
        checker_name: null,
        decided_at: null,
        note: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      result: { paid: false, approval: approvalView(approval, true) },
      entry: {
        action: 'payout:request',
        targetType: 'withdrawal',
        targetId: id,
        customerId: p.user_id,
        before: state(p),
        after: {
          approval: approval.id,
          awaiting: true,
          binding: approval.binding,
          dayTotal: fromMinor(dayTotal),
          ...overrideOf(override),
        },
      },
    };
  });
  return result;
}

/**
 * The second member approves a payout waiting for approval: never its maker, the console, or anyone
 * the maker made (approvals/people.ts); only while the payout is exactly what it was bound to (otherwise the
 * approval is voided, recorded, and refused).
 */
export async function approvePayout(
  deps: Deps,
  actor: Actor,
  id: number,
  options: DecisionOptions = {},
): Promise<{ paid: boolean }> {
  const now = deps.clock.now();
  const { result } = await audited(deps.database, actor, deps.clock.now, async (trx) => {
    let q = trx
      .selectFrom('payout_approvals')
      .selectAll()
      .where('withdrawal_id', '=', id)
      .where('status', '=', 'awaiting');
    if (deps.database.dialect === 'postgres') q = q.forUpdate();
    const approval = await q.executeTakeFirst();
    if (!approval) throw conflict('ops.errors.notWaiting');
    await assertMayCheck(trx, deps, approval.maker, actor);
    const override = await assertClaim(trx, PAYOUT_CLAIMS, String(id), actor, options.override);
    const p = await waitingPayout(trx, deps, id, true);
    const intact =
      approval.binding === bindingOf(p) && p.amount === approval.amount && p.card_id === approval.bank_id;
    const decided = await trx
      .updateTable('payout_approvals')
      .set({
        status: intact ? 'approved' : 'void',
        checker: actor.key,
        checker_name: actor.name,
        decided_at: now,
      })
      .where('id', '=', approval.id)
      .where('status', '=', 'awaiting')
      .executeTakeFirst();
    if (Number(decided.numUpdatedRows) !== 1) throw conflict('ops.errors.notWaiting');
    if (intact && !(await payWithdrawal(trx, id, now))) throw conflict('ops.errors.notWaiting');
    return {
      result: { paid: intact },
      entry: {
        action: intact ? 'payout:approve' : 'payout:void',
        targetType: 'withdrawal',
        targetId: id,
        customerId: p.user_id,
        before: { ...state(p), approval: approval.id, maker: approval.maker },
        after: intact
          ? { status: WITHDRAW_STATUS.paid, approval: approval.id, ...overrideOf(override) }
          : { approval: approval.id, void: 'changed since it was asked' },
      },
    };
  });
  // The void is kept (and audited); the approver hears that nothing was paid.
  if (!result.paid) throw conflict('ops.errors.approvalVoid');
  return result;
}

/** Rejects a withdrawal: refunded (`withdrawRefund`), with a reason; a waiting approval is void. */
export async function rejectPayout(
  deps: Deps,
  actor: Actor,
  id: number,
  reason: string,
  text?: string,
  options: DecisionOptions = {},
): Promise<void> {
  if (!(PAYOUT_REJECTION_REASONS as readonly string[]).includes(reason)) throw invalid('ops.errors.reason');
  const note = plainText(text ?? '').slice(0, 500) || null;
  if (reason === 'other' && !note) throw invalid('ops.errors.reasonText');
  const now = deps.clock.now();
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const p = await waitingPayout(trx, deps, id);
    const override = await assertClaim(trx, PAYOUT_CLAIMS, String(id), actor, options.override);
    if (!(await refundWithdrawal(trx, id, now))) throw conflict('ops.errors.notWaiting');
    await trx
      .updateTable('payout_approvals')
      .set({ status: 'rejected', checker: actor.key, checker_name: actor.name, decided_at: now, note })
      .where('withdrawal_id', '=', id)
      .where('status', '=', 'awaiting')
      .execute();
    return {
      result: undefined,
      entry: {
        action: 'payout:reject',
        targetType: 'withdrawal',
        targetId: id,
        customerId: p.user_id,
        before: state(p),
        after: { status: WITHDRAW_STATUS.failed, note, ...overrideOf(override) },
        reason,
      },
    };
  });
}

/**
 * Hands a held withdrawal to the payment rail. Not when its day total is above the threshold: the
 * rail would pay it with no second member.
 */
export async function releasePayout(
  deps: Deps,
  actor: Actor,
  id: number,
  options: DecisionOptions = {},
): Promise<void> {
  const now = deps.clock.now();
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const p = await waitingPayout(trx, deps, id, true);
    const override = await assertClaim(trx, PAYOUT_CLAIMS, String(id), actor, options.override);
    if (needsApproval(deps, await dayTotalOf(trx, p))) throw conflict('ops.errors.needsApproval');
    if (!(await releaseWithdrawal(trx, id, now))) throw conflict('ops.errors.notWaiting');
    return {
      result: undefined,
      entry: {
        action: 'payout:release',
        targetType: 'withdrawal',
        targetId: id,
        customerId: p.user_id,
        before: state(p),
        after: { hold: null, ...overrideOf(override) },
      },
    };
  });
}
