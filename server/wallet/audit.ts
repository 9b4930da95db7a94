import { type Kysely, sql } from 'kysely';
import { feeMinor, tradeValueMinor } from '#shared/money';
import {
  BLOCK_STATUS,
  LEDGER_REASONS,
  LOAN_STATE,
  RECHARGE_STATUS,
  STOCK_STATUS,
  WITHDRAW_STATUS,
} from '#shared/status';
import type { DB } from '../db/schema';
import { auditFunds } from '../funds/audit';
import { CHARGE_COLUMNS } from '../trading/charges';
import { type Expectation, expectedPostings, type OrderFacts } from '../trading/postings';

/**
 * The flat fee a block/QIP buy paid before block buys were charged as stock buys (0.03 % of its value, no itemised charges):
 * rows of that time keep it in `fee` with their charge columns at zero, and stay exact by it.
 */
const LEGACY_BLOCK_FEE_BPS = 3;

/**
 * The ledger audit (DESIGN rule 2): proves from the database alone that money moved only
 * through the ledger and only as the business rows say it did.
 *
 * - every balance equals the sum of its postings, none is negative, and each posting's
 *   `balance_after` continues the previous one (no posting was edited or lost);
 * - every business row that moves money (order, IPO application, withdrawal, recharge, loan, fund
 *   order) has exactly the postings its status implies, for its owner, with the right amounts —
 *   a filled stock order and a lot's sale one `transactionExpenses` posting of its recorded charges;
 *   a fund order's postings and units as server/funds/audit.ts checks them;
 * - every posting that names a business row names one that exists and belongs to the same user;
 * - share reservations of pending sells match the positions' reserved quantities;
 * - each block/QIP item's sold quantity is what its orders bought, and within its supply;
 * - a block/QIP buy paid exactly its recorded price × quantity at its recorded rate, plus its
 *   itemised charges (a stock buy's; before, the flat 0.03 % fee): what a block or QIP
 *   order says it cost is what the ledger took.
 *
 * It reads; it never repairs. `npm run ops -- ledger:audit` prints the report and fails when a
 * problem is found; the server tests run it after their scenarios.
 */

export interface AuditReport {
  users: number;
  postings: number;
  /** Sum of every balance, minor units. */
  balances: number;
  /** Sum of postings per reason, minor units (the money that came in, went out or moved). */
  byReason: Record<string, number>;
  /** Postings that name no business row (seed grants, test credits): money from outside. */
  externalCredits: number;
  problems: string[];
}

/** Postings naming these ref types must match a row of the named table. */
const REF_TABLE = {
  order: 'orders',
  withdrawal: 'withdrawals',
  recharge: 'recharges',
  loan: 'loans',
  fund_order: 'fund_orders',
} as const;
type RefType = keyof typeof REF_TABLE;

interface RefPostings {
  userIds: Set<number>;
  /** reason → amounts posted (one entry per posting). */
  reasons: Map<string, number[]>;
}

const MAX_PROBLEMS = 200;

export async function auditLedger(db: Kysely<DB>): Promise<AuditReport> {
  const problems: string[] = [];
  const report = (p: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
    else if (problems.length === MAX_PROBLEMS) problems.push('… more problems not listed');
  };

  // One consistent view of every table, so a server still running cannot make the audit see
  // half a transaction (SQLite: one read transaction; PostgreSQL: REPEATABLE READ snapshot).
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const users = await trx.selectFrom('users').select(['id', 'balance']).execute();
      const sums = await trx
        .selectFrom('ledger')
        .select((eb) => [
          'user_id',
          eb.fn.sum<number | string>('amount').as('sum'),
          eb.fn.countAll<number | string>().as('n'),
        ])
        .groupBy('user_id')
        .execute();
      const sumOf = new Map(sums.map((r) => [r.user_id, Number(r.sum)]));
      let balances = 0;
      const userIds = new Set<number>();
      for (const u of users) {
        userIds.add(u.id);
        const balance = Number(u.balance);
        balances += balance;
        const sum = sumOf.get(u.id) ?? 0;
        if (balance !== sum) report(`user ${u.id}: balance ${balance} ≠ sum of postings ${sum}`);
        if (balance < 0) report(`user ${u.id}: negative balance ${balance}`);
      }
      for (const userId of sumOf.keys()) {
        if (!userIds.has(userId)) report(`postings for missing user ${userId}`);
      }

      // Each posting must continue its user's previous balance_after (ids follow the row lock on
      // the user, so per user they are in posting order on both dialects).
      const breaks = await sql<{ id: number; user_id: number; balance_after: number; prev: number }>`
        select id, user_id, balance_after, prev from (
          select id, user_id, balance_after, amount,
            lag(balance_after, 1, 0) over (partition by user_id order by id) as prev
          from ledger
        ) t where balance_after - amount <> prev or balance_after < 0 or amount = 0
        limit ${MAX_PROBLEMS}`.execute(trx);
      for (const b of breaks.rows) {
        report(
          `posting ${b.id} (user ${b.user_id}): balance_after ${Number(b.balance_after)} does not follow ${Number(b.prev)}`,
        );
      }

      const postings = await trx
        .selectFrom('ledger')
        .select((eb) => [
          'ref_type',
          'ref_id',
          'reason',
          'user_id',
          eb.fn.sum<number | string>('amount').as('amount'),
          eb.fn.countAll<number | string>().as('n'),
        ])
        .groupBy(['ref_type', 'ref_id', 'reason', 'user_id'])
        .execute();
      const byReason: Record<string, number> = {};
      let postingCount = 0;
      let externalCredits = 0;
      const refs = new Map<string, RefPostings>();
      const known = new Set<string>(LEDGER_REASONS);
      for (const p of postings) {
        const amount = Number(p.amount);
        const n = Number(p.n);
        postingCount += n;
        byReason[p.reason] = (byReason[p.reason] ?? 0) + amount;
        if (!known.has(p.reason)) report(`postings with unknown reason ${p.reason}`);
        if (p.ref_type === null || p.ref_id === null || !(p.ref_type in REF_TABLE)) {
          // Money from outside any business row (seed grants): only ever a credit.
          if (p.reason !== 'recharge' || amount <= 0)
            report(`posting ${p.reason} ${amount} (user ${p.user_id}) names no business row`);
          else externalCredits += amount;
          continue;
        }
        const key = `${p.ref_type}:${p.ref_id}`;
        let entry = refs.get(key);
        if (!entry) {
          entry = { userIds: new Set(), reasons: new Map() };
          refs.set(key, entry);
        }
        entry.userIds.add(p.user_id);
        // Rows come grouped: keep the count of postings and their sum (the first entry carries it).
        const list = entry.reasons.get(p.reason) ?? [];
        for (let i = 0; i < n; i++) list.push(i === 0 ? amount : 0);
        entry.reasons.set(p.reason, list);
      }

      const seen = new Set<string>();
      /** Checks one business row's postings against what its status implies. */
      const expect = (
        type: RefType,
        id: number,
        owner: number,
        rule: (got: (reason: string | RegExp) => { count: number; sum: number }) => string | null,
      ) => {
        const key = `${type}:${id}`;
        seen.add(key);
        const entry: RefPostings = refs.get(key) ?? { userIds: new Set(), reasons: new Map() };
        for (const u of entry.userIds) {
          if (u !== owner) report(`${type} ${id} of user ${owner}: posting for user ${u}`);
        }
        const claimed = new Set<string>();
        const got = (reason: string | RegExp) => {
          let count = 0;
          let sum = 0;
          for (const [r, amounts] of entry.reasons) {
            if (typeof reason === 'string' ? r !== reason : !reason.test(r)) continue;
            claimed.add(r);
            count += amounts.length;
            sum += amounts.reduce((a, b) => a + b, 0);
          }
          return { count, sum };
        };
        const problem = rule(got);
        if (problem) report(`${type} ${id} (user ${owner}): ${problem}`);
        for (const r of entry.reasons.keys()) {
          if (!claimed.has(r)) report(`${type} ${id} (user ${owner}): unexpected ${r} posting`);
        }
      };
      const exactly = (g: { count: number; sum: number }, count: number, sum: number, what: string) =>
        g.count === count && g.sum === sum
          ? null
          : `${what}: ${g.count} postings of ${g.sum}, want ${count} of ${sum}`;
      const first = (...checks: (string | null)[]) => checks.find((c) => c !== null) ?? null;
      /** One group of an order's postings against what its state implies. */
      const meets = (g: { count: number; sum: number }, e: Expectation): string | null => {
        if (e.min !== undefined && g.count < e.min) return `${g.count} ${e.what} postings`;
        if (e.max !== undefined && g.count > e.max) return `${g.count} ${e.what} postings`;
        if (e.count !== undefined && e.sum !== undefined) return exactly(g, e.count, e.sum, e.what);
        if (e.count !== undefined && g.count !== e.count) return `${g.count} ${e.what} postings`;
        if (e.sum !== undefined && g.sum !== e.sum) return `${e.what}: ${g.sum}, want ${e.sum}`;
        return null;
      };

      const orders = await trx
        .selectFrom('orders')
        .select([
          'id',
          'user_id',
          'kind',
          'side',
          'status',
          'price',
          'qty',
          'rate',
          'price_all',
          'fee',
          ...CHARGE_COLUMNS,
        ])
        .execute();
      const chargesOf = (o: (typeof orders)[number]) => CHARGE_COLUMNS.reduce((a, c) => a + Number(o[c]), 0);
      const rowProblem = (o: (typeof orders)[number], facts: OrderFacts): string | null => {
        if (o.kind === 'bulk' || o.kind === 'finalize') {
          if (o.side !== 'buy' || o.status !== BLOCK_STATUS.success) return null;
          const want = tradeValueMinor(Number(o.price), Number(o.qty), Number(o.rate));
          const value = facts.price_all - facts.fee;
          const parts = chargesOf(o);
          const legacy = parts === 0 && facts.fee === feeMinor(want, LEGACY_BLOCK_FEE_BPS);
          return first(
            value === want ? null : `value ${value} ≠ price × qty at its rate ${want}`,
            parts === facts.fee || legacy ? null : `fee ${facts.fee} ≠ its charges ${parts}`,
          );
        }
        if (o.kind !== 'stock' && o.side !== 'sell') return null;
        const parts = chargesOf(o);
        return parts === facts.fee ? null : `fee ${facts.fee} ≠ its charges ${parts}`;
      };
      for (const o of orders) {
        const facts = { ...o, price_all: Number(o.price_all), fee: Number(o.fee) };
        expect('order', o.id, o.user_id, (got) => {
          // The row itself first: its fee is its recorded charges; a block/QIP buy's value is price
          // × qty at its rate.
          const row = rowProblem(o, facts);
          // Then its postings: what its state implies, by the rules its writers follow
          // (trading/postings.ts).
          const expected = expectedPostings(facts);
          if (typeof expected === 'string') return expected;
          const posted = expected.map((e) => meets(got(e.reasons), e));
          return first(row, ...posted);
        });
      }

      const withdrawals = await trx
        .selectFrom('withdrawals')
        .select(['id', 'user_id', 'amount', 'status'])
        .execute();
      for (const w of withdrawals) {
        const amount = Number(w.amount);
        expect('withdrawal', w.id, w.user_id, (got) =>
          first(
            exactly(got('withdraw'), 1, -amount, 'reservation'),
            exactly(
              got('withdrawRefund'),
              w.status === WITHDRAW_STATUS.failed ? 1 : 0,
              w.status === WITHDRAW_STATUS.failed ? amount : 0,
              'refund',
            ),
          ),
        );
      }

      const recharges = await trx
        .selectFrom('recharges')
        .select(['id', 'user_id', 'amount', 'status'])
        .execute();
      for (const r of recharges) {
        const done = r.status === RECHARGE_STATUS.completed;
        expect('recharge', r.id, r.user_id, (got) =>
          exactly(got('recharge'), done ? 1 : 0, done ? Number(r.amount) : 0, 'credit'),
        );
      }

      const loans = await trx
        .selectFrom('loans')
        .select(['id', 'user_id', 'amount', 'status', 'due', 'interest', 'late_charge'])
        .execute();
      const loanBooks = await trx
        .selectFrom('loan_postings')
        .select(['loan_id', 'user_id', 'amount', 'due_after', 'reason'])
        .orderBy('loan_id')
        .orderBy('id')
        .execute();
      const bookOf = new Map<number, typeof loanBooks>();
      for (const p of loanBooks) {
        const list = bookOf.get(p.loan_id) ?? [];
        list.push(p);
        bookOf.set(p.loan_id, list);
      }
      for (const l of loans) {
        const principal = Number(l.amount);
        const lent = l.status === LOAN_STATE.unpaid || l.status === LOAN_STATE.paid;
        const repaid = l.status === LOAN_STATE.paid;
        const charges = Number(l.interest) + Number(l.late_charge);
        expect('loan', l.id, l.user_id, (got) =>
          first(
            exactly(got('borrow'), lent ? 1 : 0, lent ? principal : 0, 'disbursement'),
            exactly(got('repay'), repaid ? 1 : 0, repaid ? -principal : 0, 'repayment'),
            exactly(got('interest'), repaid && charges > 0 ? 1 : 0, repaid ? -charges : 0, 'interest'),
          ),
        );
        // The loan's own ledger: its postings add up to the amount due, each continuing the last.
        const book = bookOf.get(l.id) ?? [];
        bookOf.delete(l.id);
        let due = 0;
        const by: Record<string, number> = {};
        for (const p of book) {
          due += Number(p.amount);
          by[p.reason] = (by[p.reason] ?? 0) + Number(p.amount);
          if (Number(p.due_after) !== due || p.user_id !== l.user_id)
            report(`loan ${l.id}: a posting leaves ${p.due_after} due after a running sum of ${due}`);
        }
        const expected = l.status === LOAN_STATE.unpaid ? principal + charges : 0;
        if (due !== Number(l.due) || Number(l.due) !== expected)
          report(`loan ${l.id}: due ${l.due}, its postings sum to ${due}, expected ${expected}`);
        if (lent && (by.borrow ?? 0) !== principal)
          report(`loan ${l.id}: borrowed ${by.borrow ?? 0} of ${principal}`);
        if ((by.interest ?? 0) + (by.lateCharge ?? 0) !== (lent ? charges : 0))
          report(`loan ${l.id}: accrued ${(by.interest ?? 0) + (by.lateCharge ?? 0)} but records ${charges}`);
        if (repaid && (by.repay ?? 0) !== -(principal + charges))
          report(`loan ${l.id}: repaid ${-(by.repay ?? 0)} of ${principal + charges}`);
      }
      for (const id of bookOf.keys()) report(`loan postings name loan ${id}, which does not exist`);

      await auditFunds(trx, { expect, report });

      for (const key of refs.keys()) {
        if (!seen.has(key)) report(`postings name ${key}, which does not exist`);
      }

      // Shares: what pending sells hold back is exactly what positions mark reserved.
      const positions = await trx
        .selectFrom('positions')
        .select(['user_id', 'symbol', 'qty', 'reserved_qty'])
        .execute();
      const held = await trx
        .selectFrom('orders')
        .select((eb) => ['user_id', 'symbol', eb.fn.sum<number | string>('qty').as('n')])
        .where('kind', '=', 'stock')
        .where('side', '=', 'sell')
        .where('status', '=', STOCK_STATUS.pending)
        .groupBy(['user_id', 'symbol'])
        .execute();
      const heldOf = new Map(held.map((h) => [`${h.user_id}:${h.symbol}`, Number(h.n)]));
      for (const p of positions) {
        const key = `${p.user_id}:${p.symbol}`;
        const reserved = Number(p.reserved_qty);
        if (p.qty < 0 || reserved < 0 || reserved > p.qty)
          report(`position ${key}: qty ${p.qty}, reserved ${reserved}`);
        if ((heldOf.get(key) ?? 0) !== reserved)
          report(`position ${key}: reserved ${reserved} but pending sells hold ${heldOf.get(key) ?? 0}`);
        heldOf.delete(key);
      }
      for (const [key, n] of heldOf) report(`pending sells of ${key} hold ${n} shares of no position`);

      // Block/QIP supply: what an item counts as sold is what its buy orders took, never past supply.
      const items = await trx.selectFrom('block_items').select(['id', 'supply', 'sold']).execute();
      const taken = await trx
        .selectFrom('orders')
        .select((eb) => ['ref_id', eb.fn.sum<number | string>('qty').as('n')])
        .where('kind', 'in', ['bulk', 'finalize'])
        .where('side', '=', 'buy')
        .where('status', '=', BLOCK_STATUS.success)
        .groupBy('ref_id')
        .execute();
      const takenOf = new Map(taken.map((t) => [t.ref_id, Number(t.n)]));
      for (const item of items) {
        const sold = Number(item.sold);
        if (sold > Number(item.supply))
          report(`block item ${item.id}: sold ${sold} of a supply of ${item.supply}`);
        if ((takenOf.get(item.id) ?? 0) !== sold)
          report(`block item ${item.id}: sold ${sold} but its orders bought ${takenOf.get(item.id) ?? 0}`);
      }

      return { users: users.length, postings: postingCount, balances, byReason, externalCredits, problems };
    });
}

/** A short human report (the ops command prints it). */
export function formatAudit(r: AuditReport): string {
  const lines = [
    `users ${r.users}, postings ${r.postings}, balances ${r.balances} minor units`,
    ...Object.entries(r.byReason)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([reason, sum]) => `  ${reason.padEnd(22)} ${sum}`),
    r.problems.length === 0 ? 'ledger audit: OK' : `ledger audit: ${r.problems.length} problem(s)`,
    ...r.problems.map((p) => `  ✗ ${p}`),
  ];
  return lines.join('\n');
}
