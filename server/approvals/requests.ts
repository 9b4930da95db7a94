import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ApprovalView } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import type { ApprovalsTable, DB } from '../db/schema';
import type { Deps } from '../deps';
import type { Actor } from '../lib/audit-log';
import { conflict } from '../lib/errors';
import { assertMayCheck } from './people';

/**
 * Two people's decisions other than payouts (wallet/payouts.ts keeps its own table): a loan above
 * LOAN_APPROVAL_ABOVE, and the back office's decisions on a customer's account. The maker's
 * request is bound to what was asked (`binding`); the checker is someone else in the sense of
 * people.ts; a request whose target changed since is void, never approved. Each move is a guarded
 * update, so two checkers racing decide once. Callers run these inside their audited transaction.
 */

type Approval = Selectable<ApprovalsTable>;

/** SHA-256 of the fields a request is bound to. */
export const bindingOf = (fields: unknown[]) =>
  createHash('sha256').update(JSON.stringify(fields)).digest('hex');

export function approvalView(a: Approval, intact: boolean): ApprovalView {
  return {
    id: a.id,
    kind: a.kind,
    targetId: a.target_id,
    amount: a.amount === null ? null : fromMinor(a.amount),
    detail: a.detail ? (JSON.parse(a.detail) as Record<string, unknown>) : null,
    status: a.status,
    maker: a.maker,
    makerName: a.maker_name,
    createdAt: a.created_at,
    checkerName: a.checker_name,
    decidedAt: a.decided_at,
    intact,
  };
}

/** The request waiting on (`kind`, `targetId`), locked on PostgreSQL for the caller's decision. */
export async function awaiting(
  trx: Kysely<DB>,
  deps: Deps,
  kind: string,
  targetId: string,
): Promise<Approval | undefined> {
  let q = trx
    .selectFrom('approvals')
    .selectAll()
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .where('status', '=', 'awaiting');
  if (deps.database.dialect === 'postgres') q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The latest request of each target of `kind` among `targetIds` (for lists). */
export async function latestApprovals(
  db: Kysely<DB>,
  kind: string,
  targetIds: string[],
): Promise<Map<string, Approval>> {
  if (targetIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('approvals')
    .selectAll()
    .where('kind', '=', kind)
    .where('target_id', 'in', targetIds)
    .orderBy('id')
    .execute();
  return new Map(rows.map((r) => [r.target_id, r]));
}

export interface ApprovalRequest {
  kind: string;
  targetId: string;
  userId: number | null;
  amount: number | null;
  binding: string;
  detail?: Record<string, unknown> | null;
}

/** The maker's request: refused while one waits already (the same maker again, or a race). */
export async function requestApproval(
  trx: Kysely<DB>,
  deps: Deps,
  actor: Actor,
  req: ApprovalRequest,
): Promise<Approval> {
  if (await awaiting(trx, deps, req.kind, req.targetId)) throw conflict('ops.errors.awaitingApproval');
  return trx
    .insertInto('approvals')
    .values({
      kind: req.kind,
      target_id: req.targetId,
      user_id: req.userId,
      amount: req.amount,
      binding: req.binding,
      detail: req.detail ? JSON.stringify(req.detail) : null,
      status: 'awaiting',
      maker: actor.key,
      maker_name: actor.name,
      created_at: deps.clock.now(),
      checker: null,
      checker_name: null,
      decided_at: null,
      note: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The checker's decision on a waiting request: refused to anyone who may not check the maker;
 * `approved` while the target is still what was asked (`binding`), else `void`. Answers which.
 */
export async function checkApproval(
  trx: Kysely<DB>,
  deps: Deps,
  actor: Actor,
  request: Approval,
  binding: string,
): Promise<'approved' | 'void'> {
  await assertMayCheck(trx, deps, request.maker, actor);
  const outcome = request.binding === binding ? 'approved' : 'void';
  const decided = await trx
    .updateTable('approvals')
    .set({ status: outcome, checker: actor.key, checker_name: actor.name, decided_at: deps.clock.now() })
    .where('id', '=', request.id)
    .where('status', '=', 'awaiting')
    .executeTakeFirst();
  if (Number(decided.numUpdatedRows) !== 1) throw conflict('ops.errors.notWaiting');
  return outcome;
}

/** A waiting request ends with its target's rejection (by anyone who may reject it). */
export async function closeApproval(
  trx: Kysely<DB>,
  deps: Deps,
  actor: Actor,
  kind: string,
  targetId: string,
  note: string | null,
) {
  await trx
    .updateTable('approvals')
    .set({
      status: 'rejected',
      checker: actor.key,
      checker_name: actor.name,
      decided_at: deps.clock.now(),
      note,
    })
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .where('status', '=', 'awaiting')
    .execute();
}
