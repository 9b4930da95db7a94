import type { Kysely } from 'kysely';
import type { ApprovalView, DepositRow, Deposits } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { RECHARGE_STATUS } from '#shared/status';
import { namesOf } from '../account/customer-names';
import { assertClaim, type DecisionOptions, overrideOf } from '../approvals/people';
import {
  approvalView,
  awaiting,
  bindingOf,
  checkApproval,
  closeApproval,
  latestApprovals,
  requestApproval,
} from '../approvals/requests';
import { plainText } from '../content/sanitize';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { conflict, invalid, notFound } from '../lib/errors';
import { notify } from '../notify/notify';
import { completeRecharge, failRecharge } from './settlement';

/**
 * Deposits: recharges waiting for the money to show on the bank statement, confirmed (credited)
 * or rejected with a reason the customer reads in their inbox. Above DEPOSIT_APPROVAL_ABOVE a
 * confirmation is two people's (approvals/requests.ts, as loans): the first member's confirm records a
 * request bound to the recharge as they saw it (id, customer, amount, reference), another member
 * in the sense of approvals/people.ts approves it and only then is it credited. Crediting is the guarded
 * transition of wallet/settlement.ts (in progress → completed), so confirmations racing each other,
 * the console or the sandbox timer credit once. A claimed deposit is decided by its claimant or by
 * an admin who says why.
 */

const KIND = 'deposit';
const CLAIMS = ['deposit'] as const;

/** Recharges in progress, oldest first, with the customer's phone. */
export function waitingDeposits(db: Kysely<DB>) {
  return db
    .selectFrom('recharges')
    .innerJoin('users', 'users.id', 'recharges.user_id')
    .select([
      'recharges.id',
      'recharges.user_id',
      'users.phone',
      'recharges.amount',
      'recharges.method',
      'recharges.reference',
      'recharges.created_at',
    ])
    .where('recharges.status', '=', RECHARGE_STATUS.inProgress)
    .orderBy('recharges.created_at')
    .orderBy('recharges.id');
}

type Recharge = { id: number; user_id: number; amount: number; reference: string | null };

/** What a request is bound to: the recharge as the maker saw it. */
const depositBinding = (r: Recharge) => bindingOf([r.id, r.user_id, r.amount, r.reference]);

const needsApproval = (deps: Deps, minor: number) => minor > deps.config.ops.depositApprovalAbove;

export async function deposits(deps: Deps): Promise<Deposits> {
  const { db } = deps.database;
  const rows = await waitingDeposits(db).limit(200).execute();
  const names = await namesOf(
    db,
    rows.map((r) => r.user_id),
  );
  const approvals = await latestApprovals(
    db,
    KIND,
    rows.map((r) => String(r.id)),
  );
  const claims = new Map(
    (rows.length
      ? await db
          .selectFrom('work_claims')
          .innerJoin('staff', 'staff.id', 'work_claims.staff_id')
          .select(['work_claims.item_id', 'staff.id', 'staff.name'])
          .where('work_claims.item_type', '=', 'deposit')
          .where(
            'work_claims.item_id',
            'in',
            rows.map((r) => String(r.id)),
          )
          .execute()
      : []
    ).map((c) => [c.item_id, { id: c.id, name: c.name }]),
  );
  const out: DepositRow[] = rows.map((r) => {
    const a = approvals.get(String(r.id));
    return {
      id: r.id,
      userId: r.user_id,
      phone: r.phone,
      customer: names.get(r.user_id)!,
      amount: fromMinor(r.amount),
      reference: r.reference,
      method: r.method,
      askedAt: r.created_at,
      needsApproval: needsApproval(deps, r.amount),
      approval: a && a.status === 'awaiting' ? approvalView(a, a.binding === depositBinding(r)) : null,
      claimedBy: claims.get(String(r.id)) ?? null,
    };
  });
  return { threshold: fromMinor(deps.config.ops.depositApprovalAbove), rows: out };
}

async function rechargeOf(trx: Kysely<DB>, deps: Deps, id: number) {
  let q = trx
    .selectFrom('recharges')
    .select(['id', 'user_id', 'amount', 'status', 'reference'])
    .where('id', '=', id);
  if (deps.database.dialect === 'postgres') q = q.forUpdate();
  const r = await q.executeTakeFirst();
  if (!r) throw notFound();
  return r;
}

/** The customer hears of the outcome in their inbox, in the decision's transaction. */
function tell(
  trx: Kysely<DB>,
  deps: Deps,
  r: Recharge,
  event: 'recharged' | 'rechargeRejected',
  reason?: string,
) {
  return notify(trx, {
    userId: r.user_id,
    kind: 'payout',
    refId: r.id,
    symbol: '',
    params: { event, amount: r.amount, ...(reason ? { reason } : {}) },
    at: deps.clock.now(),
  });
}

type Decided = { credited: boolean; approval: ApprovalView | null; void: boolean };

/**
 * Confirms a deposit: at or below DEPOSIT_APPROVAL_ABOVE it is credited now; above it this asks for
 * a second member's approval (`credited: false`, refused while one waits already).
 */
export async function confirmDeposit(
  deps: Deps,
  actor: Actor,
  id: number,
  options: DecisionOptions = {},
): Promise<{ credited: boolean; approval: ApprovalView | null }> {
  const { result } = await audited<Decided>(deps.database, actor, deps.clock.now, async (trx) => {
    const r = await rechargeOf(trx, deps, id);
    if (r.status !== RECHARGE_STATUS.inProgress) throw conflict('ops.errors.notWaiting');
    const override = overrideOf(await assertClaim(trx, CLAIMS, String(id), actor, options.override));
    const before = { status: r.status, amount: fromMinor(r.amount), reference: r.reference };
    const entry = { targetType: 'recharge', targetId: id, customerId: r.user_id, before };
    if (!needsApproval(deps, r.amount)) {
      if (!(await completeRecharge(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
      await tell(trx, deps, r, 'recharged');
      return {
        result: { credited: true, approval: null, void: false },
        entry: {
          ...entry,
          action: 'recharge:confirm',
          after: { status: RECHARGE_STATUS.completed, ...override },
        },
      };
    }
    const request = await requestApproval(trx, deps, actor, {
      kind: KIND,
      targetId: String(id),
      userId: r.user_id,
      amount: r.amount,
      binding: depositBinding(r),
      detail: { reference: r.reference },
    });
    return {
      result: { credited: false, approval: approvalView(request, true), void: false },
      entry: {
        ...entry,
        action: 'recharge:request',
        after: { approval: request.id, awaiting: true, ...override },
      },
    };
  });
  return { credited: result.credited, approval: result.approval };
}

/** The second member's approval of a confirmation above the threshold: credits the deposit. */
export async function approveDeposit(
  deps: Deps,
  actor: Actor,
  id: number,
  options: DecisionOptions = {},
): Promise<{ credited: boolean }> {
  const { result } = await audited<Decided>(deps.database, actor, deps.clock.now, async (trx) => {
    const r = await rechargeOf(trx, deps, id);
    const waiting = await awaiting(trx, deps, KIND, String(id));
    if (!waiting || r.status !== RECHARGE_STATUS.inProgress) throw conflict('ops.errors.notWaiting');
    const override = overrideOf(await assertClaim(trx, CLAIMS, String(id), actor, options.override));
    const outcome = await checkApproval(trx, deps, actor, waiting, depositBinding(r));
    if (outcome === 'approved') {
      if (!(await completeRecharge(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
      await tell(trx, deps, r, 'recharged');
    }
    return {
      result: { credited: outcome === 'approved', approval: null, void: outcome === 'void' },
      entry: {
        action: outcome === 'approved' ? 'recharge:approve' : 'recharge:void',
        targetType: 'recharge',
        targetId: id,
        customerId: r.user_id,
        before: { status: r.status, amount: fromMinor(r.amount), approval: waiting.id, maker: waiting.maker },
        after:
          outcome === 'approved'
            ? { status: RECHARGE_STATUS.completed, approval: waiting.id, ...override }
            : { approval: waiting.id, void: 'changed since it was asked' },
      },
    };
  });
  // The void is kept (and audited); the checker hears that nothing was credited.
  if (result.void) throw conflict('ops.errors.approvalVoid');
  return { credited: result.credited };
}

/** Rejects a deposit (nothing is credited) with a reason the customer reads in their inbox. */
export async function rejectDeposit(
  deps: Deps,
  actor: Actor,
  id: number,
  text: string,
  options: DecisionOptions = {},
): Promise<void> {
  const reason = plainText(text).trim().slice(0, 500);
  if (!reason) throw invalid('ops.errors.reasonText');
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const r = await rechargeOf(trx, deps, id);
    const override = overrideOf(await assertClaim(trx, CLAIMS, String(id), actor, options.override));
    if (!(await failRecharge(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
    await closeApproval(trx, deps, actor, KIND, String(id), reason);
    await tell(trx, deps, r, 'rechargeRejected', reason);
    return {
      result: undefined,
      entry: {
        action: 'recharge:reject',
        targetType: 'recharge',
        targetId: id,
        customerId: r.user_id,
        before: { status: r.status, amount: fromMinor(r.amount), reference: r.reference },
        after: { status: RECHARGE_STATUS.failed, ...override },
        reason,
      },
    };
  });
}
