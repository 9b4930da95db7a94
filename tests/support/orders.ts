import { afterAll, beforeAll, beforeEach } from 'vitest';
import { JOBS } from '../../server/jobs/index';
import { startTestServer, type TestServer } from './server';
import {
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  type MarketControl,
  NO_CHARGES_ENV,
  toSession,
} from './trading';

/** 1,000,000.00: enough for any order of the stock order suites. */
export const RICH = 100_000_000;

export const matchJob = JOBS.find((j) => j.name === 'orders:match')!;

/**
 * The stock order suites' server (tests/server/orders-*.test.ts), started in the calling
 * `describe`: no charges, limits up to 30 % from the quote, and a market of round prices —
 * RELIANCE.NS 2,500, AAPL 200, USDINR 20, EURUSD 1.1, a gold future at 2,000 and a bond at 98.5.
 * `s` and `m` are set once its `beforeAll` has run; the audit runs after the suite.
 */
export function ordersServer(dialect: 'sqlite' | 'postgres', enabled: boolean) {
  const t = {
    s: undefined as unknown as TestServer,
    m: undefined as unknown as MarketControl,
    /** A signed-up user with `minor` credited. */
    async trader(minor = RICH) {
      const u = await t.s.signUp();
      if (minor > 0) await credit(t.s, u.id, minor);
      return u;
    },
    buy: (token: string, body: Record<string, unknown>, headers = idem()) =>
      t.s.call('dealBuy', { token, body: { mold: 'stock', ...body }, headers }),
    sell: (token: string, body: Record<string, unknown>, headers = idem()) =>
      t.s.call('dealSell', { token, body: { mold: 'stock', ...body }, headers }),
    holdings: async (token: string, type: string) =>
      (await t.s.call('holdings', { token, query: { type } })).body.data,
    async orderCount(userId: number): Promise<number> {
      const r = await t.s.deps.database.db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
  beforeAll(async () => {
    if (!enabled) return;
    // Limits here sit up to 30 % from the quote; the band itself is tests/server/order-limits.
    // Round figures without charges: tests/server/charges covers them.
    t.s = await startTestServer(dialect, { LIMIT_BAND_BPS: '5000', ...NO_CHARGES_ENV });
    const m = controlMarket(t.s);
    t.m = m;
    m.pin('RELIANCE.NS', 2500);
    m.pin('AAPL', 200);
    // The USD rate is the live USDINR quote (trading/fx.ts): 20 keeps the figures round.
    m.pin('USDINR=X', 20);
    m.pin('EURUSD=X', 1.1);
    m.add(
      {
        symbol: 'GCT=F',
        name: 'Gold test future',
        market: 'FUTURE',
        exchange: 'COMEX',
        kind: 'futures',
        region: 'US',
        currency: 'USD',
        decimals: 2,
      },
      2000,
    );
    m.add(
      {
        symbol: 'IN10YT',
        name: 'India 10Y test bond',
        market: 'CGI',
        exchange: 'NSE',
        kind: 'treasury',
        region: 'IN',
        currency: 'INR',
        decimals: 2,
      },
      98.5,
    );
  });
  // Each test starts inside an NSE session (a market order on a closed market is an AMO);
  // a test of a US symbol moves on to its session (toSession), the next one back to NSE's.
  beforeEach(() => {
    if (enabled) toSession(t.s, 'RELIANCE.NS');
  });
  afterAll(async () => {
    if (t.s) await expectLedgerConsistent(t.s);
    await t.s?.close();
  });
  return t;
}
