import { afterAll, beforeAll, expect } from 'vitest';
import type { FundCategory } from '#shared/funds';
import { isMarketOpen, nextSession } from '#shared/market-hours';
import { priceToTicks } from '#shared/money';
import { setFundPassword } from '../../server/account/fund-password';
import { withTx } from '../../server/db/index';
import { post } from '../../server/lib/ledger';
import type { Instrument, MarketProvider, Quote } from '../../server/market/provider';
import { auditLedger } from '../../server/wallet/audit';
import { startTestServer, type TestServer } from './server';

/** Helpers for the trading suites: a market the test can steer, money, catalogue rows, invariants. */

/** What a test says about an extra instrument; catalogue details (id, schedule) are filled in. */
type ExtraInstrument = Omit<Instrument, 'id' | 'schedule'>;

const SCHEDULE_OF = { forex: 'FX', futures: 'CME' } as Record<string, string>;

export interface MarketControl {
  /** From now on the server quotes `symbol` at `price` (and, if given, the previous close at `prevClose`). */
  pin(symbol: string, price: number, prevClose?: number): void;
  /** The server quotes `symbol` at `price` as of `asOf` from now on, however the clock moves (a feed that stopped). */
  pinAt(symbol: string, price: number, asOf: number): void;
  /** The server has no quote for `symbol` (instrument still listed); `pin` quotes it again. */
  unquote(symbol: string): void;
  /** Adds an instrument the simulator lacks (e.g. a futures contract) quoted at `price`. */
  add(instrument: ExtraInstrument, price: number): void;
}

/**
 * Replaces the server's market with a proxy that answers pinned prices and extra instruments and
 * delegates everything else, so tests never depend on where a random walk happens to be.
 */
export function controlMarket(s: TestServer): MarketControl {
  const real = s.deps.market;
  const pins = new Map<string, number>();
  const closes = new Map<string, number>();
  const extra = new Map<string, Instrument>();
  const asOfs = new Map<string, number>();
  const unquoted = new Set<string>();
  const quote = (symbol: string): Quote | undefined => {
    if (unquoted.has(symbol)) return undefined;
    const base = real.quote(symbol);
    const price = pins.get(symbol);
    if (price === undefined) return base;
    const prevClose = closes.get(symbol) ?? base?.prevClose ?? price;
    return {
      symbol,
      price,
      open: base?.open ?? price,
      high: Math.max(base?.high ?? price, price),
      low: Math.min(base?.low ?? price, price),
      prevClose,
      change: price - prevClose,
      changePercent: prevClose ? ((price - prevClose) / prevClose) * 100 : 0,
      volume: base?.volume ?? 0,
      asOf: asOfs.get(symbol) ?? s.clock.now(),
    };
  };
  s.deps.market = new Proxy(real, {
    get(target, prop) {
      if (prop === 'quote') return quote;
      if (prop === 'instrument') return (symbol: string) => extra.get(symbol) ?? target.instrument(symbol);
      if (prop === 'instruments') return () => [...target.instruments(), ...extra.values()];
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as MarketProvider;
  return {
    pin(symbol, price, prevClose) {
      unquoted.delete(symbol);
      asOfs.delete(symbol);
      pins.set(symbol, price);
      if (prevClose !== undefined) closes.set(symbol, prevClose);
    },
    pinAt(symbol, price, asOf) {
      unquoted.delete(symbol);
      pins.set(symbol, price);
      asOfs.set(symbol, asOf);
    },
    unquote(symbol) {
      unquoted.add(symbol);
    },
    add(instrument, price) {
      const full = {
        id: 900_000 + extra.size,
        schedule: SCHEDULE_OF[instrument.kind] ?? (instrument.region === 'US' ? 'US' : 'NSE'),
        ...instrument,
      } as unknown as Instrument;
      extra.set(instrument.symbol, full);
      pins.set(instrument.symbol, price);
    },
  };
}

/** Credits `minor` to a user through the ledger, as a settled recharge would. */
export async function credit(s: TestServer, userId: number, minor: number): Promise<void> {
  await withTx(s.deps.database, (trx) =>
    post(trx, { userId, amount: minor, reason: 'recharge', refType: 'test', at: s.clock.now() }),
  );
}

/** A signed-up user with `minor` credited: a trader whose tests are not about money running short. */
export async function fundedUser(s: TestServer, minor: number) {
  const u = await s.signUp();
  await credit(s, u.id, minor);
  return u;
}

/** A stock order as the ticket sends it (its own Idempotency-Key); `body` adds to or overrides it. */
export function stockOrder(
  s: TestServer,
  side: 'dealBuy' | 'dealSell',
  token: string,
  tag: string,
  body: Record<string, unknown>,
) {
  return s.call(side, { token, body: { mold: 'stock', tag, ...body }, headers: idem() });
}
export async function balanceOf(s: TestServer, userId: number): Promise<number> {
  const row = await s.deps.database.db
    .selectFrom('users')
    .select('balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

export async function ledgerOf(s: TestServer, userId: number) {
  return s.deps.database.db
    .selectFrom('ledger')
    .select(['amount', 'reason', 'ref_type', 'balance_after'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export async function setTradePassword(s: TestServer, userId: number, code = '246810'): Promise<string> {
  await setFundPassword(s.deps, s.deps.database.db, userId, code);
  return code;
}

/**
 * DESIGN rule 2, checked by the ledger audit (server/wallet/audit.ts): every balance equals the sum of
 * its postings, none is negative, and every money row has exactly the postings its status implies.
 */
export async function expectLedgerConsistent(s: TestServer): Promise<void> {
  const report = await auditLedger(s.deps.database.db);
  expect(report.problems).toEqual([]);
}

let seq = 0;
/** A symbol no seed uses, so catalogue rows inserted by a test never clash with seeded ones. */
function testSymbol(prefix: string): string {
  seq += 1;
  return `${prefix}${process.pid % 1000}X${seq}`;
}

export async function insertIpo(
  s: TestServer,
  row: Partial<{
    symbol: string;
    status: string;
    issue_price: number;
    min: number;
    max: number;
    series: string;
    /** Days until applications close (default 2); it lists 5 days after. */
    closesInDays: number;
  }> = {},
): Promise<{ id: number; symbol: string }> {
  const now = s.clock.now();
  const closes = row.closesInDays ?? 2;
  const symbol = row.symbol ?? testSymbol('IPO');
  const inserted = await s.deps.database.db
    .insertInto('ipos')
    .values({
      symbol,
      company_name: `${symbol} Ltd`,
      series: row.series ?? 'NSE',
      status: row.status ?? 'Forthcoming',
      issue_price: priceToTicks(row.issue_price ?? 120.5),
      min: row.min ?? 100,
      max: row.max ?? 1000,
      issue_start_date: now - 86_400_000,
      issue_end_date: now + closes * 86_400_000,
      listing_date: now + (closes + 5) * 86_400_000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: inserted.id, symbol };
}

export async function insertBlockItem(
  s: TestServer,
  row: {
    tag: string;
    price: number;
    mold?: 'bulk' | 'finalize';
    count?: number;
    type?: string;
    status?: number;
    /** Quantity on offer; default 100 minimum lots. */
    supply?: number;
  },
): Promise<number> {
  const inserted = await s.deps.database.db
    .insertInto('block_items')
    .values({
      symbol: row.tag,
      kind: row.mold ?? 'bulk',
      region: row.type ?? 'IN',
      price: priceToTicks(row.price),
      min_qty: row.count ?? 100,
      status: row.status ?? 1,
      supply: row.supply ?? (row.count ?? 100) * 100,
      sold: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * A mutual fund of the test's own (server/funds): a debt fund launched in 2018 at NAV 10 with a
 * ₹1,000 minimum unless told otherwise. Its NAV is published by the NAV job (`publishNavs`).
 */
export async function insertFund(
  s: TestServer,
  row: Partial<{
    name: string;
    /** Minimum first purchase, minor units. */
    amount: number;
    status: number;
    category: FundCategory;
    expense_ratio_bps: number;
    exit_load_ppm: number;
    exit_load_days: number;
    /** Day number (days since 1970-01-01). */
    launched_on: number;
    /** NAV at launch, ticks. */
    nav_base: number;
  }> = {},
): Promise<number> {
  const inserted = await s.deps.database.db
    .insertInto('funds')
    .values({
      name: row.name ?? testSymbol('Fund '),
      min_return: 0,
      max_return: 0,
      investment_period: 0,
      amount: row.amount ?? 100_000,
      issue_amount: 0,
      sold_amount: 0,
      status: row.status ?? 1,
      manager: null,
      risk: null,
      category: row.category ?? 'debt',
      expense_ratio_bps: row.expense_ratio_bps ?? 50,
      exit_load_ppm: row.exit_load_ppm ?? 0,
      exit_load_days: row.exit_load_days ?? 0,
      launched_on: row.launched_on ?? 17_533,
      nav_base: row.nav_base ?? 100_000,
      nav: null,
      nav_day: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Headers for a money call with a fresh idempotency key. */
export function idem(key = `k-${Math.random().toString(36).slice(2, 12)}`): Record<string, string> {
  return { 'idempotency-key': key };
}

/**
 * Server env with every charge at zero: suites about the engine's mechanics keep round figures;
 * tests/server/charges.test.ts covers the charges themselves.
 */
export const NO_CHARGES_ENV: Record<string, string> = {
  CHARGES_BROKERAGE_PER_CRORE: '0',
  CHARGES_STT_PER_CRORE: '0',
  CHARGES_EXCHANGE_PER_CRORE: '0',
  CHARGES_SEBI_PER_CRORE: '0',
  CHARGES_STAMP_PER_CRORE: '0',
  CHARGES_GST_BPS: '0',
};

/**
 * The server of one dialect's suite, for `describe.each(DIALECTS)`: started before its tests
 * (when the dialect is enabled), then the ledger audited and the server closed after them. The
 * answer stands in for the server once it has started.
 */
export function auditedServer(
  dialect: 'sqlite' | 'postgres',
  enabled: boolean,
  env: Record<string, string> = {},
): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    if (enabled) server = await startTestServer(dialect, env);
  });
  afterAll(async () => {
    if (server) await expectLedgerConsistent(server);
    await server?.close();
  });
  return new Proxy({} as TestServer, {
    get(_target, key) {
      if (!server) throw new Error('the suite server has not started (is its dialect enabled?)');
      const value = Reflect.get(server, key);
      return typeof value === 'function' ? value.bind(server) : value;
    },
  });
}

/**
 * Moves the server's clock into a session of `symbol`'s market — `intoMs` after its next open —
 * unless it is in one already (a market order on a closed market is an after-market
 * order, pending until the open; a test of an immediate fill places it inside a session).
 */
export function toSession(s: TestServer, symbol: string, intoMs = 3600_000): void {
  const instrument = s.deps.market.instrument(symbol);
  if (!instrument) throw new Error(`toSession: ${symbol} is not listed`);
  const now = s.clock.now();
  if (isMarketOpen(instrument, now)) return;
  s.clock.advance(nextSession(instrument.schedule, now).open + intoMs - now);
}
