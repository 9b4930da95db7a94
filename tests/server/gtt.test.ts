import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, runJob } from '../../server/jobs/index';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  expectLedgerConsistent,
  fundedUser,
  idem,
  ledgerOf,
  type MarketControl,
  NO_CHARGES_ENV,
} from '../support/trading';

/**
 * Good-till-triggered orders: a trigger on either side of the quote and a limit, valid
 * 1 to 365 days. What the order needs is reserved at placement at its limit; the match job fires
 * it at the server's quote on the side it waits on, it then rests at its limit for that session;
 * the end of its validity (or of its triggered session) releases exactly what it reserved. Round
 * figures: no charges here. The ledger audit is clean after every state.
 */
const RICH = 100_000_000;
const SYMBOL = 'RELIANCE.NS';
const DAY = 24 * 3600 * 1000;

describe.each(DIALECTS)('GTT orders on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { LIMIT_BAND_BPS: '5000', ...NO_CHARGES_ENV });
    m = controlMarket(s);
    m.pin(SYMBOL, 2500);
  });
  afterAll(async () => {
    await s?.close();
  });
  const match = () => runJob(s.deps, JOBS.find((j) => j.name === 'orders:match')!);
  const order = (name: 'dealBuy' | 'dealSell', token: string, body: Record<string, unknown>) =>
    s.call(name, {
      token,
      body: { mold: 'stock', tag: SYMBOL, order_type: 'gtt', ...body },
      headers: idem(),
    });
  const trader = () => fundedUser(s, RICH);
  async function row(token: string, no: string) {
    const list = await s.call('orderList', { token, query: { tag: SYMBOL } });
    return list.body.data.rows.find((r: { no: string }) => r.no === no);
  }

  it.runIf(enabled)('a buy on a dip waits days, fires on the fall and fills within its limit', async () => {
    m.pin(SYMBOL, 2500);
    const u = await trader();
    const placedAt = s.clock.now();
    const placed = await order('dealBuy', u.token, { count: 10, price: 2310, trigger: 2300, valid_days: 30 });
    expect(placed.body.data).toMatchObject({
      status: 0,
      order_type: 'gtt',
      trigger_price: 2300,
      trigger_rises: false,
      limit_price: 2310,
      price_all: '23100.00',
    });
    // Valid 30 days from placement (the server's clock moves on between the two readings).
    expect(placed.body.data.expires_at - 30 * DAY).toBeGreaterThanOrEqual(placedAt);
    expect(placed.body.data.expires_at - 30 * DAY).toBeLessThanOrEqual(s.clock.now());
    expect(await balanceOf(s, u.id)).toBe(RICH - 2_310_000);
    await expectLedgerConsistent(s);

    // Days pass, sessions close: a GTT is not a day order.
    s.clock.advance(5 * DAY);
    m.pin(SYMBOL, 2400);
    await match();
    expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 0, triggered_at: null });

    m.pin(SYMBOL, 2295);
    await match();
    const filled = await row(u.token, placed.body.data.no);
    expect(filled).toMatchObject({ status: 1, price: 2295, price_all: '22950.00' });
    expect(filled.triggered_at).toBeGreaterThan(0);
    expect(await balanceOf(s, u.id)).toBe(RICH - 2_295_000);
    expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: 15_000, reason: 'orderRefund' });
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)('a sell target holds its units, fires on a rise and fills at the quote', async () => {
    m.pin(SYMBOL, 2500);
    const u = await trader();
    await s.call('dealBuy', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: 10, price: 2500 },
      headers: idem(),
    });
    const placed = await order('dealSell', u.token, { count: 6, price: 2690, trigger: 2700 });
    expect(placed.body.data).toMatchObject({ status: 0, trigger_rises: true, limit_price: 2690 });
    // Valid a year unless told otherwise.
    expect(placed.body.data.expires_at - 365 * DAY).toBeLessThanOrEqual(s.clock.now());
    expect(placed.body.data.expires_at - 365 * DAY).toBeGreaterThan(s.clock.now() - 60_000);
    const [held] = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
    expect(held).toMatchObject({ count: 10, available: 4 });
    const before = await balanceOf(s, u.id);
    m.pin(SYMBOL, 2650);
    await match();
    expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 0, triggered_at: null });
    m.pin(SYMBOL, 2710);
    await match();
    expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 1, sell_price: 2710 });
    expect(await balanceOf(s, u.id)).toBe(before + 1_626_000);
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)(
    'expiry releases exactly what it reserved; a triggered GTT lives its session',
    async () => {
      m.pin(SYMBOL, 2500);
      const u = await trader();
      const waiting = await order('dealBuy', u.token, {
        count: 4,
        price: 2300,
        trigger: 2300,
        valid_days: 2,
      });
      const fired = await order('dealBuy', u.token, {
        count: 2,
        price: 2600,
        trigger: 2600,
        valid_days: 200,
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 920_000 - 520_000);
      // The second fires on a rise beyond its limit: it rests, then its session ends, not its year.
      m.pin(SYMBOL, 2650);
      await match();
      const triggered = await row(u.token, fired.body.data.no);
      expect(triggered).toMatchObject({ status: 0 });
      expect(triggered.triggered_at).toBeGreaterThan(0);
      expect(triggered.expires_at).toBeLessThan(s.clock.now() + DAY + 1);
      s.clock.advance(3 * DAY);
      await match();
      expect(await row(u.token, waiting.body.data.no)).toMatchObject({ status: 3 });
      expect(await row(u.token, fired.body.data.no)).toMatchObject({ status: 3 });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)('validates validity, trigger and limit, and is modified like a stop', async () => {
    m.pin(SYMBOL, 2500);
    const u = await trader();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ count: 1, price: 2300, trigger: 2300, valid_days: 366 }, 'errors.gttValidity'],
      [{ count: 1, price: 2500, trigger: 2500 }, 'errors.gttTrigger'],
      [{ count: 1, price: 2290, trigger: 2300 }, 'errors.triggerLimit'],
      [{ count: 1, price: 2500 }, 'errors.triggerMissing'],
      [{ count: 1, price: 1000, trigger: 1000 }, 'errors.limitOutsideBand'],
    ];
    for (const [body, error] of cases) {
      const res = await order('dealBuy', u.token, body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ msg: 'no', data: error });
    }
    const zero = await order('dealBuy', u.token, { count: 1, price: 2300, trigger: 2300, valid_days: 0 });
    expect(zero.status).toBe(400);
    const notGtt = await s.call('dealBuy', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: 1, price: 2300, valid_days: 5 },
      headers: idem(),
    });
    expect(notGtt.body).toMatchObject({ msg: 'no', data: 'errors.gttValidity' });
    expect(await balanceOf(s, u.id)).toBe(RICH);

    const placed = await order('dealBuy', u.token, { count: 2, price: 2310, trigger: 2300 });
    // It stays on the side it waits on: a dip buy's trigger cannot move above the market.
    const wrongSide = await s.call('orderModify', {
      token: u.token,
      body: { no: placed.body.data.no, trigger: 2550, price: 2560 },
      headers: idem(),
    });
    expect(wrongSide.body).toMatchObject({ msg: 'no', data: 'errors.triggerSide' });
    const moved = await s.call('orderModify', {
      token: u.token,
      body: { no: placed.body.data.no, trigger: 2400, price: 2410, count: 3 },
      headers: idem(),
    });
    expect(moved.body.data).toMatchObject({
      trigger_price: 2400,
      limit_price: 2410,
      count: 3,
      trigger_rises: false,
    });
    expect(await balanceOf(s, u.id)).toBe(RICH - 723_000);
    await expectLedgerConsistent(s);
  });
});
