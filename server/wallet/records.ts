import type { Kysely, Selectable } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type {
  BillRow,
  LedgerReason,
  LoanRecord,
  RechargeRecord,
  WithdrawRecord,
} from '#shared/contract/wallet';
import { bpsToPercent } from '#shared/loans';
import { fromMinor } from '#shared/money';
import { PAGE_SIZE } from '#shared/rules';
import { RECHARGE_STATUS } from '#shared/status';
import type { DB, LoansTable, RechargesTable, WithdrawalsTable } from '../db/schema';
import { notFound } from '../lib/errors';
import { maskTail } from '../lib/mask';

/** What the wallet shows: database rows as contract rows, and the user's own lists of them. */

export function rechargeRecord(r: Selectable<RechargesTable>): RechargeRecord {
  return {
    id: r.id,
    type: 'recharge',
    count: fromMinor(r.amount),
    method: r.method,
    status: r.status as RechargeRecord['status'],
    actual: fromMinor(r.status === RECHARGE_STATUS.completed ? r.amount : 0),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function withdrawRecord(
  w: Selectable<WithdrawalsTable>,
  card: { bank: string; bank_card: string },
): WithdrawRecord {
  return {
    id: w.id,
    type: 'withdraw',
    count: fromMinor(w.amount),
    status: w.status as WithdrawRecord['status'],
    actual: fromMinor(w.actual),
    bank: { id: w.bank_id, bank: card.bank, bank_card: maskTail(card.bank_card) },
    hold: w.hold,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

export function loanRecord(l: Selectable<LoansTable>): LoanRecord {
  return {
    id: l.id,
    type: 'loan',
    count: fromMinor(l.amount),
    state: l.status as LoanRecord['state'],
    due: fromMinor(Number(l.due)),
    accrued: fromMinor(Number(l.interest) + Number(l.late_charge)),
    interest_rate: l.rate_bps === null ? 0 : bpsToPercent(l.rate_bps),
    due_at: l.due_at === null ? null : Number(l.due_at),
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

function paging(input: { page?: number; limit?: number }): { limit: number; offset: number } {
  const limit = input.limit ?? PAGE_SIZE;
  return { limit, offset: ((input.page ?? 1) - 1) * limit };
}

const countOf = async (q: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }) =>
  Number((await q.executeTakeFirstOrThrow()).n);

const withdrawalWithCard = (db: Kysely<DB>) =>
  db
    .selectFrom('withdrawals')
    .innerJoin('bank_cards', 'bank_cards.id', 'withdrawals.bank_id')
    .selectAll('withdrawals')
    .select(['bank_cards.bank', 'bank_cards.bank_card']);

/** The bill list (`/v2/bill`), read from the ledger: newest first, income or expense by sign. */
export async function bills(db: Kysely<DB>, userId: number, input: ReqOf<typeof contract.bill>) {
  const { limit, offset } = paging(input);
  const type = input.type ?? 'all';
  const base = db
    .selectFrom('ledger')
    .where('ledger.user_id', '=', userId)
    .$if(type === 'income', (q) => q.where('ledger.amount', '>', 0))
    .$if(type === 'expense', (q) => q.where('ledger.amount', '<', 0));
  const [rows, count] = await Promise.all([
    base
      // A trade's postings (its cost or proceeds, its charges, a refund) name the order's instrument.
      .leftJoin('orders', (j) =>
        j.onRef('orders.id', '=', 'ledger.ref_id').on('ledger.ref_type', '=', 'order'),
      )
      .select([
        'ledger.id',
        'ledger.amount',
        'ledger.balance_after',
        'ledger.reason',
        'ledger.created_at',
        'orders.symbol',
      ])
      .orderBy('ledger.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    countOf(base.select((eb) => eb.fn.countAll<number | string>().as('n'))),
  ]);
  return {
    rows: rows.map(
      (r): BillRow => ({
        id: r.id,
        type: r.amount > 0 ? 'income' : 'expense',
        amount: fromMinor(Math.abs(r.amount)),
        balance: fromMinor(r.balance_after),
        reason: r.reason as LedgerReason,
        symbol: r.symbol ?? null,
        created_at: r.created_at,
      }),
    ),
    count,
  };
}

export async function rechargeRecords(
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.rechargeRecords>,
) {
  const { limit, offset } = paging(input);
  const base = db.selectFrom('recharges').where('user_id', '=', userId);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    countOf(base.select((eb) => eb.fn.countAll<number | string>().as('n'))),
  ]);
  return { rows: rows.map(rechargeRecord), count };
}

export async function withdrawRecords(
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.withdrawRecords>,
) {
  const { limit, offset } = paging(input);
  const [rows, count] = await Promise.all([
    withdrawalWithCard(db)
      .where('withdrawals.user_id', '=', userId)
      .orderBy('withdrawals.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    countOf(
      db
        .selectFrom('withdrawals')
        .where('user_id', '=', userId)
        .select((eb) => eb.fn.countAll<number | string>().as('n')),
    ),
  ]);
  return { rows: rows.map((r) => withdrawRecord(r, r)), count };
}

/** One recharge or withdrawal of the user's own; someone else's is not found. */
export async function recordDetail(
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.recordDetail>,
): Promise<RechargeRecord | WithdrawRecord> {
  if (input.type === 'recharge') {
    const row = await db
      .selectFrom('recharges')
      .selectAll()
      .where('id', '=', input.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) throw notFound();
    return rechargeRecord(row);
  }
  const row = await withdrawalWithCard(db)
    .where('withdrawals.id', '=', input.id)
    .where('withdrawals.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return withdrawRecord(row, row);
}

export async function loanRecords(db: Kysely<DB>, userId: number) {
  const rows = await db
    .selectFrom('loans')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return { rows: rows.map(loanRecord) };
}
