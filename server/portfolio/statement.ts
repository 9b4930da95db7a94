import type { Statement, StatementRow } from '#shared/contract/portfolio';
import { fromMinor } from '#shared/money';
import type { Deps } from '../deps';
import { civilDay, dayStart, localDay } from '../market/hours';

/**
 * The realised P&L statement of a financial year (April to March, India time, as Indian tax
 * returns count it), per instrument: every sale's cost, proceeds and realised profit as the
 * order recorded them at the fill, and the charges the ledger holds for that instrument's orders
 * in the year (`transactionExpenses`, whatever posted them: block/QIP fees, order charges).
 */

const CALENDAR = 'NSE' as const;

/** Epoch ms of 1 April of `year`, India time. */
const aprilFirst = (year: number) => dayStart(CALENDAR, civilDay(year, 4, 1));

/** The start year of the financial year `at` falls in. */
export function financialYear(at: number): number {
  const year = new Date(localDay(CALENDAR, at) * 86_400_000).getUTCFullYear();
  return at >= aprilFirst(year) ? year : year - 1;
}

interface Acc {
  name: string;
  sold: number;
  cost: number;
  proceeds: number;
  realised: number;
  charges: number;
}

export async function statement(deps: Deps, userId: number, fy?: number): Promise<Statement> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const year = fy ?? financialYear(now);
  const from = aprilFirst(year);
  const to = aprilFirst(year + 1);

  const sales = await db
    .selectFrom('orders')
    .select(['symbol', 'name', 'qty', 'price_all', 'profit'])
    .where('user_id', '=', userId)
    .where('side', '=', 'sell')
    .where('profit', 'is not', null)
    .where('updated_at', '>=', from)
    .where('updated_at', '<', to)
    .execute();
  const charges = await db
    .selectFrom('ledger')
    .leftJoin('orders', (j) => j.onRef('orders.id', '=', 'ledger.ref_id').on('ledger.ref_type', '=', 'order'))
    .select(['orders.symbol', 'orders.name', 'ledger.amount'])
    .where('ledger.user_id', '=', userId)
    .where('ledger.reason', '=', 'transactionExpenses')
    .where('ledger.created_at', '>=', from)
    .where('ledger.created_at', '<', to)
    .execute();

  const by = new Map<string, Acc>();
  const acc = (symbol: string, name: string): Acc => {
    let a = by.get(symbol);
    if (!a) {
      a = { name, sold: 0, cost: 0, proceeds: 0, realised: 0, charges: 0 };
      by.set(symbol, a);
    }
    return a;
  };
  for (const s of sales) {
    const a = acc(s.symbol, s.name);
    const profit = s.profit ?? 0;
    a.sold += s.qty;
    a.proceeds += s.price_all;
    a.cost += s.price_all - profit;
    a.realised += profit;
  }
  // A charge that names no order (none does today) is still the user's cost: it gets its own row.
  for (const c of charges) acc(c.symbol ?? '—', c.name ?? '—').charges += -c.amount;

  const rows: StatementRow[] = [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([symbol, a]) => ({ symbol, ...money(a) }));
  const sum = [...by.values()].reduce(
    (t, a) => ({
      name: '',
      sold: t.sold + a.sold,
      cost: t.cost + a.cost,
      proceeds: t.proceeds + a.proceeds,
      realised: t.realised + a.realised,
      charges: t.charges + a.charges,
    }),
    { name: '', sold: 0, cost: 0, proceeds: 0, realised: 0, charges: 0 },
  );
  const { name: _, ...totals } = money(sum);
  return {
    fy: year,
    years: await years(deps, userId, financialYear(now)),
    from,
    to,
    rows,
    totals,
    as_of: now,
  };
}

function money(a: Acc): Omit<StatementRow, 'symbol'> {
  return {
    name: a.name,
    sold: a.sold,
    cost: fromMinor(a.cost),
    proceeds: fromMinor(a.proceeds),
    realised: fromMinor(a.realised),
    charges: fromMinor(a.charges),
    net: fromMinor(a.realised - a.charges),
  };
}

/** Financial years from the user's first sale or charge to the current one, newest first. */
async function years(deps: Deps, userId: number, current: number): Promise<number[]> {
  const { db } = deps.database;
  const [sale, charge] = await Promise.all([
    db
      .selectFrom('orders')
      .select((e) => e.fn.min('updated_at').as('first'))
      .where('user_id', '=', userId)
      .where('side', '=', 'sell')
      .where('profit', 'is not', null)
      .executeTakeFirst(),
    db
      .selectFrom('ledger')
      .select((e) => e.fn.min('created_at').as('first'))
      .where('user_id', '=', userId)
      .where('reason', '=', 'transactionExpenses')
      .executeTakeFirst(),
  ]);
  const firsts = [sale?.first, charge?.first].filter((v) => v !== null && v !== undefined).map(Number);
  const first = firsts.length > 0 ? financialYear(Math.min(...firsts)) : current;
  const out: number[] = [];
  for (let y = current; y >= Math.min(first, current); y--) out.push(y);
  return out;
}
