import { afterAll, beforeAll, expect } from 'vitest';
import { chargesFor } from '../../server/trading/charges';
import { RICH } from './orders';
import { startTestServer, type TestServer } from './server';
import {
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertBlockItem,
  type MarketControl,
  setTradePassword,
  toSession,
} from './trading';

/**
 * The block/QIP suites' server (tests/server/block-*.test.ts), started in the calling `describe`:
 * RELIANCE.NS 2,500, AAPL 200 (converted at a live USDINR of 88.5), TCS.NS 4,000, and four items —
 * a bulk RELIANCE block at 2,412.37 (minimum 100), a US bulk AAPL block at 190.55 (50), a TCS QIP
 * at 3,900 (200) and a closed TCS block. `s`, `m` and `items` are set once its `beforeAll` has run;
 * the audit runs after the suite.
 */
export function blockServer(dialect: 'sqlite' | 'postgres', enabled: boolean) {
  const t = {
    s: undefined as unknown as TestServer,
    m: undefined as unknown as MarketControl,
    items: { bulkIn: 0, bulkUs: 0, qip: 0, closed: 0 },
    /** A signed-up user with `minor` credited and a transaction password (`code`). */
    async buyer(minor = RICH) {
      const u = await t.s.signUp();
      if (minor > 0) await credit(t.s, u.id, minor);
      const code = await setTradePassword(t.s, u.id);
      return { ...u, code };
    },
    /** A block/QIP buy, in its market's session (a lot trades only then): the clock moves there first. */
    buy: (token: string, body: Record<string, unknown>, headers = idem()) => {
      if (typeof body.tag === 'string' && t.s.deps.market.instrument(body.tag)) toSession(t.s, body.tag);
      return t.s.call('dealBuy', { token, body, headers });
    },
    /** What a lot's sale of `value` (minor units) in `tag` pays: a stock sell's charges. */
    saleCharges: (tag: string, value: number) =>
      chargesFor(t.s.config.charges, t.s.deps.market.instrument(tag), 'sell', value, 'delivery').total,
    /** The whole of each item on offer at its block price, with the buyer's transaction code. */
    relianceBulk: (code: string) => ({
      tag: 'RELIANCE.NS',
      count: 100,
      price: 2412.37,
      mold: 'bulk',
      id: t.items.bulkIn,
      stock_password: code,
    }),
    aaplBulk: (code: string) => ({
      tag: 'AAPL',
      count: 50,
      price: 190.55,
      mold: 'bulk',
      id: t.items.bulkUs,
      stock_password: code,
    }),
    qipBuy: (code: string) => ({
      tag: 'TCS.NS',
      count: 200,
      price: 3900,
      mold: 'finalize',
      id: t.items.qip,
      stock_password: code,
    }),
    /** Moves the server's clock to the moment a bought lot unlocks (clocks only move forward). */
    passLockIn(lot: { unlock_at: number | null }) {
      expect(lot.unlock_at).toBeGreaterThan(t.s.clock.now());
      t.s.clock.advance(lot.unlock_at! - t.s.clock.now());
    },
  };
  beforeAll(async () => {
    if (!enabled) return;
    // Items up to 5 % off the pinned market, from before the block window: a 10 % window
    // keeps these figures; the 1 % default is tests/server/block-window.test.ts.
    const s = await startTestServer(dialect, { BLOCK_BAND_BPS: '1000' });
    t.s = s;
    const m = controlMarket(s);
    t.m = m;
    m.pin('RELIANCE.NS', 2500);
    m.pin('AAPL', 200);
    // US lots convert at the live USDINR quote (trading/fx.ts; tests/server/fx-rate covers the rest).
    m.pin('USDINR=X', 88.5);
    m.pin('TCS.NS', 4000);
    t.items.bulkIn = await insertBlockItem(s, { tag: 'RELIANCE.NS', price: 2412.37, count: 100 });
    t.items.bulkUs = await insertBlockItem(s, { tag: 'AAPL', price: 190.55, count: 50, type: 'US' });
    t.items.qip = await insertBlockItem(s, { tag: 'TCS.NS', price: 3900, mold: 'finalize', count: 200 });
    t.items.closed = await insertBlockItem(s, { tag: 'TCS.NS', price: 3800, status: 0 });
  });
  afterAll(async () => {
    if (t.s) await expectLedgerConsistent(t.s);
    await t.s?.close();
  });
  return t;
}
