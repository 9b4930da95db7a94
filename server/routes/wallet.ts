import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { CONFIG_TAGS } from '../../src/shared/contract/config';
import { contract } from '../../src/shared/contract/index';
import type {
  BillRow,
  LedgerReason,
  LoanRecord,
  RechargeRecord,
  WithdrawRecord,
} from '../../src/shared/contract/wallet';
import { fromMinor, unitsToMinor } from '../../src/shared/money';
import {
  checkLoanAmount,
  checkRechargeAmount,
  checkWithdrawAmount,
  DEFAULT_MIN_WITHDRAW,
  PAGE_SIZE,
  withdrawMinimum,
} from '../../src/shared/rules';
import { hotReads } from '../db/hot';
import type { DB, LoansTable, RechargesTable, WithdrawalsTable } from '../db/schema';
import { creditOf } from '../lib/credit';
import { ApiError, conflict, invalid, notFound } from '../lib/errors';
import { post } from '../lib/ledger';
import { maskTail } from '../lib/mask';
import { route } from '../lib/route';

function rechargeRecord(r: Selectable<RechargesTable>): RechargeRecord {
  return {
    id: r.id,
    type: 'recharge',
    count: fromMinor(r.count),
    method: r.method,
    status: r.status as RechargeRecord['status'],
    actual: fromMinor(r.status === 2 ? r.count : 0),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

function withdrawRecord(
  w: Selectable<WithdrawalsTable>,
  card: { bank: string; bank_card: string },
): WithdrawRecord {
  return {
    id: w.id,
    type: 'withdraw',
    count: fromMinor(w.count),
    status: w.status as WithdrawRecord['status'],
    actual: fromMinor(w.actual),
    bank: { id: w.bank_id, bank: card.bank, bank_card: maskTail(card.bank_card) },
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

function loanRecord(l: Selectable<LoansTable>): LoanRecord {
  return {
    id: l.id,
    type: 'loan',
    count: fromMinor(l.count),
    state: l.state as LoanRecord['state'],
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

function paging(input: { page?: number; limit?: number }): { limit: number; offset: number } {
  const limit = input.limit ?? PAGE_SIZE;
  return { limit, offset: ((input.page ?? 1) - 1) * limit };
}

/** The configured withdraw minimum in whole units (DESIGN: at least the fixed 10). */
async function minWithdraw(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('config')
    .select('value')
    .where('tag', '=', CONFIG_TAGS.minWithdraw)
    .executeTakeFirst();
  const configured = row && /^\d{1,9}$/.test(row.value.trim()) ? Number(row.value) : DEFAULT_MIN_WITHDRAW;
  return withdrawMinimum(configured);
}

const withdrawalWithCard = (db: Kysely<DB>) =>
  db
    .selectFrom('withdrawals')
    .innerJoin('bank_cards', 'bank_cards.id', 'withdrawals.bank_id')
    .selectAll('withdrawals')
    .select(['bank_cards.bank', 'bank_cards.bank_card']);

export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const isPg = deps.database.dialect === 'postgres';

  /**
   * Makes the caller's money-moving transaction the only one deciding for this user (PostgreSQL
   * row lock; SQLite transactions already run one at a time), for checks a guarded update cannot
   * express, such as the credit remaining.
   */
  async function lockUser(trx: Kysely<DB>, userId: number): Promise<void> {
    if (isPg) await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }

  route(app, contract.balance, async ({ user }) => {
    const balance = await hotReads(app.deps.database).balance(user.id);
    if (balance === undefined) throw new Error(`user ${user.id} of a valid session is missing`);
    return { balance: fromMinor(balance) };
  });

  route(app, contract.bill, async ({ db, user, input }) => {
    const { limit, offset } = paging(input);
    const type = input.type ?? 'all';
    const base = db
      .selectFrom('ledger')
      .where('user_id', '=', user.id)
      .$if(type === 'income', (q) => q.where('amount', '>', 0))
      .$if(type === 'expense', (q) => q.where('amount', '<', 0));
    const [rows, total] = await Promise.all([
      base
        .select(['id', 'amount', 'balance_after', 'reason', 'created_at'])
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      rows: rows.map(
        (r): BillRow => ({
          id: r.id,
          type: r.amount > 0 ? 'income' : 'expense',
          amount: fromMinor(Math.abs(r.amount)),
          balance: fromMinor(r.balance_after),
          reason: r.reason as LedgerReason,
          created_at: r.created_at,
        }),
      ),
      count: Number(total.n),
    };
  });

  route(app, contract.recharge, async ({ db, user, input }) => {
    const problem = checkRechargeAmount(input.count);
    if (problem) throw invalid(problem);
    const now = deps.clock.now();
    const row = await db
      .insertInto('recharges')
      .values({
        user_id: user.id,
        count: unitsToMinor(input.count),
        method: input.method ?? 'bank',
        status: 1,
        settle_at: now + Math.max(0, deps.config.sandboxSettleMs),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return rechargeRecord(row);
  });

  route(app, contract.withdraw, async ({ db, user, input }) => {
    const minimum = await minWithdraw(db);
    const problem = checkWithdrawAmount(input.count, minimum);
    if (problem) throw new ApiError(problem, 400, { min: minimum });
    const card = await db
      .selectFrom('bank_cards')
      .select(['id', 'bank', 'bank_card', 'status'])
      .where('id', '=', input.bank_id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!card) {
      const any = await db
        .selectFrom('bank_cards')
        .select('id')
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      throw any ? notFound() : invalid('errors.noBankCard');
    }
    if (card.status !== 1) throw invalid('errors.bankCardUnusable');
    const now = deps.clock.now();
    const amount = unitsToMinor(input.count);
    const row = await db
      .insertInto('withdrawals')
      .values({
        user_id: user.id,
        bank_id: card.id,
        count: amount,
        actual: 0,
        status: 'n',
        settle_at: now + Math.max(0, deps.config.sandboxSettleMs),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    // Reserved at once: the money leaves the balance now and comes back only as a refund.
    await post(db, {
      userId: user.id,
      amount: -amount,
      reason: 'withdraw',
      refType: 'withdrawal',
      refId: row.id,
      at: now,
    });
    return withdrawRecord(row, card);
  });

  route(app, contract.rechargeRecords, async ({ db, user, input }) => {
    const { limit, offset } = paging(input);
    const base = db.selectFrom('recharges').where('user_id', '=', user.id);
    const [rows, total] = await Promise.all([
      base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(rechargeRecord), count: Number(total.n) };
  });

  route(app, contract.withdrawRecords, async ({ db, user, input }) => {
    const { limit, offset } = paging(input);
    const [rows, total] = await Promise.all([
      withdrawalWithCard(db)
        .where('withdrawals.user_id', '=', user.id)
        .orderBy('withdrawals.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      db
        .selectFrom('withdrawals')
        .where('user_id', '=', user.id)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((r) => withdrawRecord(r, r)), count: Number(total.n) };
  });

  route(app, contract.recordDetail, async ({ db, user, input }) => {
    if (input.type === 'recharge') {
      const row = await db
        .selectFrom('recharges')
        .selectAll()
        .where('id', '=', input.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!row) throw notFound();
      return rechargeRecord(row);
    }
    const row = await withdrawalWithCard(db)
      .where('withdrawals.id', '=', input.id)
      .where('withdrawals.user_id', '=', user.id)
      .executeTakeFirst();
    if (!row) throw notFound();
    return withdrawRecord(row, row);
  });

  route(app, contract.loanData, async ({ db, user }) => {
    const credit = await creditOf(db, user.id);
    return {
      amountDue: fromMinor(credit.dueMinor),
      creditScore: credit.creditScore,
      remainingAmount: fromMinor(credit.remainingMinor),
    };
  });

  route(app, contract.loanApply, async ({ db, user, input }) => {
    const problem = checkLoanAmount(input.count);
    if (problem) throw invalid(problem);
    await lockUser(db, user.id);
    const amount = unitsToMinor(input.count);
    const credit = await creditOf(db, user.id);
    if (amount > credit.remainingMinor) {
      throw new ApiError('errors.loanOverLimit', 400, { max: fromMinor(credit.remainingMinor) });
    }
    const now = deps.clock.now();
    const row = await db
      .insertInto('loans')
      .values({ user_id: user.id, count: amount, state: 1, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    return loanRecord(row);
  });

  route(app, contract.loanList, async ({ db, user }) => {
    const rows = await db
      .selectFrom('loans')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id', 'desc')
      .execute();
    return { rows: rows.map(loanRecord) };
  });

  route(app, contract.loanRepay, async ({ db, user, input }) => {
    const now = deps.clock.now();
    const repaid = await db
      .updateTable('loans')
      .set({ state: 5, updated_at: now })
      .where('id', '=', input.id)
      .where('user_id', '=', user.id)
      .where('state', '=', 4)
      .returningAll()
      .executeTakeFirst();
    if (!repaid) {
      const exists = await db
        .selectFrom('loans')
        .select('id')
        .where('id', '=', input.id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      throw exists ? conflict('errors.loanNotUnpaid') : notFound();
    }
    // Insufficient funds throws here and the whole transaction, state change included, rolls back.
    await post(db, {
      userId: user.id,
      amount: -repaid.count,
      reason: 'repay',
      refType: 'loan',
      refId: repaid.id,
      at: now,
    });
    return loanRecord(repaid);
  });
}
