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
 * Stop orders: stop-loss (trigger + limit) and stop-loss-market (trigger, then the market
 * within 1 %). Each reserves at placement what its limit needs, triggers at the server's quote in
 * the match job, fills, expires at the session's close or is cancelled — releasing exactly what it
 * reserved — and the ledger audit is clean after every state. Round figures: no charges here.
 */
const RICH = 100_000_000;
const SYMBOL = 'RELIANCE.NS';

describe.each(DIALECTS)('stop orders on $name', ({ name, enabled }) => {
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
    s.call(name, { token, body: { mold: 'stock', tag: SYMBOL, ...body }, headers: idem() });
  const trader = () => fundedUser(s, RICH);
  async function row(token: string, no: string) {
    const list = await s.call('orderList', { token, query: { tag: SYMBOL } });
    return list.body.data.rows.find((r: { no: string }) => r.no === no);
  }

  it.runIf(enabled)(
    'a stop-loss buy reserves at its limit, waits for its trigger, then fills within its limit',
    async () => {
      m.pin(SYMBOL, 2500);
      const u = await trader();
      const placed = await order('dealBuy', u.token, {
        count: 10,
        price: 2620,
        order_type: 'sl',
        trigger: 2600,
      });
      expect(placed.body.data).toMatchObject({
        status: 0,
        order_type: 'sl',
        trigger_price: 2600,
        limit_price: 2620,
        triggered_at: null,
        price_all: '26200.00',
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_620_000);
      await expectLedgerConsistent(s);

      // Below the trigger nothing happens, although the quote is inside the limit.
      m.pin(SYMBOL, 2550);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 0, triggered_at: null });

      // The quote rises to 2610: triggered, and inside the limit, so filled at 2610 in the same pass.
      m.pin(SYMBOL, 2610);
      await match();
      const filled = await row(u.token, placed.body.data.no);
      expect(filled).toMatchObject({ status: 1, price: 2610, price_all: '26100.00' });
      expect(filled.triggered_at).toBeGreaterThan(0);
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_610_000);
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: 10_000, reason: 'orderRefund' });
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)(
    'a triggered stop-loss beyond its limit rests, then expires at the close releasing its reservation',
    async () => {
      m.pin(SYMBOL, 2500);
      const u = await trader();
      const placed = await order('dealBuy', u.token, {
        count: 4,
        price: 2600,
        order_type: 'sl',
        trigger: 2600,
      });
      m.pin(SYMBOL, 2700);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 0 });
      expect((await row(u.token, placed.body.data.no)).triggered_at).toBeGreaterThan(0);
      await expectLedgerConsistent(s);
      s.clock.advance(2 * 24 * 3600 * 1000);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 3 });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)(
    'a stop-loss-market sell holds its shares, triggers on a fall and fills at the quote',
    async () => {
      m.pin(SYMBOL, 2500);
      const u = await trader();
      await order('dealBuy', u.token, { count: 10, price: 2500 });
      const placed = await order('dealSell', u.token, {
        count: 6,
        price: 2500,
        order_type: 'slm',
        trigger: 2400,
      });
      // The market within 1 % of the trigger: the limit is 2,376.
      expect(placed.body.data).toMatchObject({
        status: 0,
        order_type: 'slm',
        trigger_price: 2400,
        limit_price: 2376,
      });
      const [held] = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
      expect(held).toMatchObject({ count: 10, available: 4 });
      await expectLedgerConsistent(s);
      // Selling the reserved units is refused.
      const more = await order('dealSell', u.token, { count: 5, price: 2500 });
      expect(more.body).toMatchObject({ msg: 'no', data: 'errors.insufficientShares' });

      const before = await balanceOf(s, u.id);
      m.pin(SYMBOL, 2390);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({
        status: 1,
        sell_price: 2390,
        price_all: '14340.00',
      });
      expect(await balanceOf(s, u.id)).toBe(before + 1_434_000);
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)('a cancelled stop-loss-market buy gets back exactly what it reserved', async () => {
    m.pin(SYMBOL, 2500);
    const u = await trader();
    const placed = await order('dealBuy', u.token, {
      count: 3,
      price: 2500,
      order_type: 'slm',
      trigger: 2550,
    });
    // Reserved at the trigger plus 1 %: 2,575.50 × 3.
    expect(placed.body.data).toMatchObject({ limit_price: 2575.5, price_all: '7726.50' });
    expect(await balanceOf(s, u.id)).toBe(RICH - 772_650);
    const cancelled = await s.call('orderCancel', {
      token: u.token,
      body: { no: placed.body.data.no },
      headers: idem(),
    });
    expect(cancelled.body.data).toMatchObject({ status: 2 });
    expect(await balanceOf(s, u.id)).toBe(RICH);
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)(
    'refuses a trigger on the wrong side, a limit short of its trigger, and a stop without a trigger',
    async () => {
      m.pin(SYMBOL, 2500);
      const u = await trader();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ count: 1, price: 2500, order_type: 'sl', trigger: 2400 }, 'errors.triggerSide'],
        [{ count: 1, price: 2550, order_type: 'sl', trigger: 2600 }, 'errors.triggerLimit'],
        [{ count: 1, price: 2500, order_type: 'slm' }, 'errors.triggerMissing'],
        [{ count: 1, price: 2500, order_type: 'slm', trigger: 5000 }, 'errors.limitOutsideBand'],
      ];
      for (const [body, error] of cases) {
        const res = await order('dealBuy', u.token, body);
        expect(res.body, JSON.stringify(body)).toMatchObject({ msg: 'no', data: error });
      }
      const sellUp = await order('dealSell', u.token, {
        count: 1,
        price: 2500,
        order_type: 'slm',
        trigger: 2600,
      });
      expect(sellUp.body).toMatchObject({ msg: 'no', data: 'errors.triggerSide' });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      await expectLedgerConsistent(s);
    },
  );
});
