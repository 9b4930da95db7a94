import type { Kysely } from 'kysely';
import { HOLD_LABEL, type QueueItem, type Queues, type QueueType, type WorkType } from '#shared/backoffice';
import { formatMoney } from '#shared/format';
import { fromMinor } from '#shared/money';
import { IPO_STATUS, KYC_STATUS, LOAN_STATE, WITHDRAW_STATUS } from '#shared/status';
import { namesOf } from '../account/customer-names';
import { assignChat, waitingChats } from '../content/inbox';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { ApiError, invalid, notFound } from '../lib/errors';
import { waitingDeposits } from '../wallet/deposits';
import { payoutDayTotal } from '../wallet/withdraw';

/**
 * The work queues: per type the count and the age of the oldest item, and one list
 * across every type ordered by how far each item is past its type's target time (age ÷ target),
 * so a chat waiting 10 minutes (target 5) comes before a review waiting 3 hours (target 4).
 * Items can be claimed (by oneself) or assigned (by an admin); a chat's claim is its assignment.
 */

/** How soon each type of item should be taken up. */
export const TARGET_MS: Record<WorkType, number> = {
  chat: 5 * 60_000,
  approval: 60 * 60_000,
  deposit: 60 * 60_000,
  withdrawal: 2 * 3600_000,
  kyc: 4 * 3600_000,
  loan: 24 * 3600_000,
  ipo: 24 * 3600_000,
  account: 30 * 60_000,
};

/** An account control's queue title (server/account/controls.ts). */
const CONTROL_LABEL: Record<string, string> = {
  freeze: 'Freeze awaiting a second approval',
  unfreeze: 'Unfreeze awaiting a second approval',
  factorReset: 'Second-factor reset awaiting a second approval',
  passwordReset: 'Password reset awaiting a second approval',
};

type Claims = Map<string, { id: number; name: string }>;

async function claims(db: Kysely<DB>): Promise<Claims> {
  const rows = await db
    .selectFrom('work_claims')
    .innerJoin('staff', 'staff.id', 'work_claims.staff_id')
    .select(['item_type', 'item_id', 'staff.id', 'staff.name'])
    .execute();
  return new Map(rows.map((r) => [`${r.item_type}:${r.item_id}`, { id: r.id, name: r.name }]));
}

export async function claimOf(db: Kysely<DB>, type: WorkType, id: string) {
  const row = await db
    .selectFrom('work_claims')
    .innerJoin('staff', 'staff.id', 'work_claims.staff_id')
    .select(['staff.id', 'staff.name'])
    .where('item_type', '=', type)
    .where('item_id', '=', id)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name } : null;
}

/** Every item waiting for a human, each with its claim. */
async function items(deps: Deps): Promise<QueueItem[]> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const taken = await claims(db);
  const item = (
    type: WorkType,
    id: string | number,
    title: string,
    detail: string,
    customer: { id: number; phone: string } | null,
    since: number,
    amount: number | null = null,
  ): QueueItem => ({
    type,
    id: String(id),
    title,
    detail,
    amount: amount === null ? null : fromMinor(amount),
    customerId: customer?.id ?? null,
    customerPhone: customer?.phone ?? null,
    customerName: null,
    since,
    targetMs: TARGET_MS[type],
    claimedBy: taken.get(`${type}:${id}`) ?? null,
  });
  const [kyc, held, approvals, loans, ipos, chats, recharges, depositRequests, controls] = await Promise.all([
    db
      .selectFrom('kyc')
      .innerJoin('users', 'users.id', 'kyc.user_id')
      .select(['kyc.user_id', 'users.phone', 'kyc.real_name', 'kyc.updated_at'])
      .where('kyc.status', '=', KYC_STATUS.underReview)
      .execute(),
    db
      .selectFrom('withdrawals')
      .innerJoin('users', 'users.id', 'withdrawals.user_id')
      .select([
        'withdrawals.id',
        'withdrawals.user_id',
        'users.phone',
        'withdrawals.amount',
        'withdrawals.hold',
        'withdrawals.created_at',
      ])
      .where('withdrawals.status', '=', WITHDRAW_STATUS.inProgress)
      .where('withdrawals.hold', 'is not', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('payout_approvals')
              .select('id')
              .whereRef('payout_approvals.withdrawal_id', '=', 'withdrawals.id')
              .where('payout_approvals.status', '=', 'awaiting'),
          ),
        ),
      )
      .execute(),
    db
      .selectFrom('payout_approvals')
      .innerJoin('users', 'users.id', 'payout_approvals.user_id')
      .select([
        'payout_approvals.id',
        'payout_approvals.withdrawal_id',
        'payout_approvals.user_id',
        'users.phone',
        'payout_approvals.amount',
        'payout_approvals.maker_name',
        'payout_approvals.maker',
        'payout_approvals.created_at',
      ])
      .where('payout_approvals.status', '=', 'awaiting')
      .execute(),
    db
      .selectFrom('loans')
      .innerJoin('users', 'users.id', 'loans.user_id')
      .select(['loans.id', 'loans.user_id', 'users.phone', 'loans.amount', 'loans.created_at'])
      .where('loans.status', '=', LOAN_STATE.applying)
      .execute(),
    db
      .selectFrom('ipos')
      .innerJoin('orders', (j) =>
        j
          .onRef('orders.ref_id', '=', 'ipos.id')
          .on('orders.kind', '=', 'ipo')
          .on('orders.side', '=', 'buy')
          .on('orders.status', '=', IPO_STATUS.pending),
      )
      .select((eb) => [
        'ipos.id',
        'ipos.symbol',
        'ipos.issue_end_date',
        eb.fn.countAll<number | string>().as('n'),
      ])
      .where((eb) => eb.or([eb('ipos.issue_end_date', '<=', now), eb('ipos.status', '!=', 'Forthcoming')]))
      .groupBy(['ipos.id', 'ipos.symbol', 'ipos.issue_end_date'])
      .execute(),
    waitingChats(db),
    waitingDeposits(db).execute(),
    db
      .selectFrom('approvals')
      .select(['target_id', 'maker_name', 'maker'])
      .where('kind', '=', 'deposit')
      .where('status', '=', 'awaiting')
      .execute(),
    db
      .selectFrom('approvals')
      .innerJoin('users', 'users.id', 'approvals.user_id')
      .select([
        'approvals.target_id',
        'approvals.user_id',
        'users.phone',
        'approvals.detail',
        'approvals.maker_name',
        'approvals.maker',
        'approvals.created_at',
      ])
      .where('approvals.kind', '=', 'account')
      .where('approvals.status', '=', 'awaiting')
      .execute(),
  ]);
  const asked = new Map(depositRequests.map((a) => [a.target_id, a]));
  const threshold = deps.config.ops.payoutApprovalAbove;
  const heldReasons = await Promise.all(
    held.map(async (w) => {
      // The review hold is the threshold's own: said with the amount below.
      const words = [w.hold && w.hold !== 'wallet.hold.review' ? (HOLD_LABEL[w.hold] ?? null) : null];
      if ((await payoutDayTotal(db, w.user_id, w.created_at)) > threshold)
        words.push(`above ${formatMoney(threshold)} in 24 h: two people`);
      const text = words.filter(Boolean).join(' · ') || 'Held for a decision';
      return text.charAt(0).toUpperCase() + text.slice(1);
    }),
  );
  const all = [
    ...kyc.map((k) =>
      item(
        'kyc',
        k.user_id,
        'Real-name review',
        k.real_name,
        { id: k.user_id, phone: k.phone },
        k.updated_at,
      ),
    ),
    ...held.map((w, n) =>
      item(
        'withdrawal',
        w.id,
        'Held withdrawal',
        heldReasons[n]!,
        { id: w.user_id, phone: w.phone },
        w.created_at,
        w.amount,
      ),
    ),
    ...recharges.map((r) => {
      const a = asked.get(String(r.id));
      const ref = r.reference ? `UTR ${r.reference}` : 'No bank reference given';
      return item(
        'deposit',
        r.id,
        a ? 'Deposit awaiting a second approval' : 'Deposit to confirm',
        a
          ? `${ref} · confirmed by ${a.maker_name}${a.maker.startsWith('cli:') ? ' (console)' : ''}; another member approves`
          : ref,
        { id: r.user_id, phone: r.phone },
        r.created_at,
        r.amount,
      );
    }),
    ...approvals.map((a) =>
      item(
        'approval',
        a.withdrawal_id,
        'Payout awaiting a second approval',
        `Requested by ${a.maker_name}${a.maker.startsWith('cli:') ? ' (console)' : ''}; another member approves`,
        { id: a.user_id, phone: a.phone },
        a.created_at,
        a.amount,
      ),
    ),
    ...controls.map((a) => {
      const action = (JSON.parse(a.detail ?? '{}') as { action?: string }).action ?? '';
      return item(
        'account',
        a.user_id!,
        CONTROL_LABEL[action] ?? 'Account control',
        `Requested by ${a.maker_name}${a.maker.startsWith('cli:') ? ' (console)' : ''}; another member approves`,
        { id: a.user_id!, phone: a.phone },
        a.created_at,
      );
    }),
    ...loans.map((l) =>
      item(
        'loan',
        l.id,
        'Loan application',
        'Paid into the balance when approved',
        { id: l.user_id, phone: l.phone },
        l.created_at,
        l.amount,
      ),
    ),
    ...ipos.map((i) =>
      item(
        'ipo',
        i.id,
        'IPO allotment due',
        `${i.symbol} · ${Number(i.n)} applications`,
        null,
        i.issue_end_date,
      ),
    ),
    // A chat's claim is its assignment: a waiting chat stays in the queue, taken by its assignee,
    // until it is answered (claiming it does not make it vanish from under the cursor).
    ...chats
      .filter((c) => c.waitingSince !== null)
      .map((c) => ({
        ...item(
          'chat',
          c.userId,
          'Unanswered chat',
          c.last,
          { id: c.userId, phone: c.phone },
          c.waitingSince!,
        ),
        claimedBy: c.assignedTo,
      })),
  ];
  const names = await namesOf(
    db,
    all.flatMap((i) => (i.customerId === null ? [] : [i.customerId])),
  );
  for (const i of all) if (i.customerId !== null) i.customerName = names.get(i.customerId)?.name ?? null;
  return all;
}

export async function queues(deps: Deps): Promise<Queues> {
  const now = deps.clock.now();
  const all = await items(deps);
  const types: QueueType[] = (Object.keys(TARGET_MS) as WorkType[]).map((type) => {
    const mine = all.filter((i) => i.type === type);
    return {
      type,
      count: mine.length,
      oldestAt: mine.length ? Math.min(...mine.map((i) => i.since)) : null,
      targetMs: TARGET_MS[type],
    };
  });
  const overdue = (i: QueueItem) => (now - i.since) / i.targetMs;
  return { now, types, items: all.sort((a, b) => overdue(b) - overdue(a) || a.since - b.since) };
}

/**
 * Claims an item for oneself, assigns it to another member (admins only), or releases it
 * (`staffId` null: one's own claim, or any for an admin). Chats are assigned in their thread.
 */
export async function claim(
  deps: Deps,
  actor: Actor,
  input: { type: WorkType; id: string; staffId?: number | null },
): Promise<void> {
  const self = actor.staffId;
  const target = input.staffId === undefined ? self : input.staffId;
  const admin = actor.role === 'admin';
  if (target !== null && target !== self && !admin) throw new ApiError('ops.errors.forbidden', 403);
  if (input.type === 'chat') {
    const userId = Number(input.id);
    if (!Number.isSafeInteger(userId) || userId < 1) throw invalid();
    return assignChat(deps, actor, userId, target);
  }
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const before = await trx
      .selectFrom('work_claims')
      .select('staff_id')
      .where('item_type', '=', input.type)
      .where('item_id', '=', input.id)
      .executeTakeFirst();
    if (target === null) {
      if (before && before.staff_id !== self && !admin) throw new ApiError('ops.errors.forbidden', 403);
      await trx
        .deleteFrom('work_claims')
        .where('item_type', '=', input.type)
        .where('item_id', '=', input.id)
        .execute();
    } else {
      const member = await trx
        .selectFrom('staff')
        .select('id')
        .where('id', '=', target)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      if (!member) throw notFound();
      // Someone else's claim is taken over only by an assignment (an admin's).
      if (before && before.staff_id !== target && !admin) throw new ApiError('ops.errors.claimed', 409);
      await trx
        .insertInto('work_claims')
        .values({ item_type: input.type, item_id: input.id, staff_id: target, claimed_at: deps.clock.now() })
        .onConflict((oc) =>
          oc
            .columns(['item_type', 'item_id'])
            .doUpdateSet({ staff_id: target, claimed_at: deps.clock.now() }),
        )
        .execute();
    }
    return {
      result: undefined,
      entry: {
        action: target === null ? 'work:release' : target === self ? 'work:claim' : 'work:assign',
        targetType: input.type,
        targetId: input.id,
        before: { staffId: before?.staff_id ?? null },
        after: { staffId: target },
      },
    };
  });
}
