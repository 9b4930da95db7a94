import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../server/deps';
import { JOBS, runJob } from '../../server/jobs/index';
import type { MarketProvider } from '../../server/market/provider';
import { matchPendingOrders } from '../../server/trading/matching';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  ledgerOf,
  type MarketControl,
  NO_CHARGES_ENV,
  toSession,
} from '../support/trading';

/**
 * OCO GTT sells: one order, a target above the quote and a stop below it, each with its
 * limit, and ONE reservation of the units. Whichever leg the server's quote reaches first fires;
 * the order then rests at that leg's limit for the session and the other leg is gone with it.
 * Cancel and expiry release exactly the units reserved. Round figures: no charges. The ledger
 * audit (which checks every position's reserved units against its pending sells) after each.
 */
const RICH = 100_000_000;
const SYMBOL = 'RELIANCE.NS';
const DAY = 24 * 3600 * 1000;
/** Target 2700 (limit 2690), stop 2300 (limit 2290), around a quote of 2500. */
const LEGS = { price: 2690, trigger: 2700, stop_trigger: 2300, stop_price: 2290 };

describe.each(DIALECTS)('OCO GTT orders on $name', ({ name, enabled }) => {
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
  const oco = (token: string, body: Record<string, unknown>, side: 'dealSell' | 'dealBuy' = 'dealSell') =>
    s.call(side, {
      token,
      body: { mold: 'stock', tag: SYMBOL, order_type: 'oco', ...body },
      headers: idem(),
    });
  /** A trader holding `held` units bought at 2500. */
  async function holder(held = 10) {
    m.pin(SYMBOL, 2500);
    toSession(s, SYMBOL);
    const u = await s.signUp();
    await credit(s, u.id, RICH);
    const bought = await s.call('dealBuy', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: held, price: 2500 },
      headers: idem(),
    });
    expect(bought.body).toMatchObject({ msg: 'ok', data: { status: 1 } });
    return u;
  }
  async function row(token: string, no: string) {
    const list = await s.call('orderList', { token, query: { tag: SYMBOL, limit: 50 } });
    return list.body.data.rows.find((r: { no: string }) => r.no === no);
  }
  async function position(token: string) {
    const rows = (await s.call('holdings', { token, query: { type: 'stock' } })).body.data.rows;
    return rows.find((r: { stock: string }) => r.stock === SYMBOL) ?? null;
  }
  const sells = async (userId: number) =>
    (await ledgerOf(s, userId)).filter((l) => l.reason === 'sellStock').length;

  it.runIf(enabled)(
    'holds the units once and fires its target on a rise; the stop never fires after',
    async () => {
      const u = await holder(10);
      const placed = await oco(u.token, { count: 10, valid_days: 30, ...LEGS });
      expect(placed.body.data).toMatchObject({
        status: 0,
        state: 'sell',
        order_type: 'oco',
        trigger_price: 2700,
        target_limit: 2690,
        stop_trigger: 2300,
        stop_limit: 2290,
        limit_price: 2690,
        fired_leg: null,
        triggered_at: null,
      });
      expect(await position(u.token)).toMatchObject({ count: 10, available: 0 });
      const before = await balanceOf(s, u.id);
      await expectLedgerConsistent(s);

      // Between the legs: nothing fires, even days later (in a session: a closed market fires nothing).
      s.clock.advance(3 * DAY);
      toSession(s, SYMBOL);
      m.pin(SYMBOL, 2650);
      await match();
      m.pin(SYMBOL, 2350);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 0, triggered_at: null });

      m.pin(SYMBOL, 2710);
      await match();
      const filled = await row(u.token, placed.body.data.no);
      expect(filled).toMatchObject({ status: 1, fired_leg: 'target', sell_price: 2710, count: 10 });
      expect(filled.triggered_at).toBeGreaterThan(0);
      expect(await balanceOf(s, u.id)).toBe(before + 2_710_000);
      expect(await position(u.token)).toBeNull();
      await expectLedgerConsistent(s);

      // The stop leg went with it: a fall through the stop sells nothing more.
      m.pin(SYMBOL, 2200);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 1, fired_leg: 'target' });
      expect(await balanceOf(s, u.id)).toBe(before + 2_710_000);
      expect(await sells(u.id)).toBe(1);
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)(
    'fires its stop on a fall and fills at the quote; a later rise fires nothing',
    async () => {
      const u = await holder(8);
      const placed = await oco(u.token, { count: 6, ...LEGS });
      expect(await position(u.token)).toMatchObject({ count: 8, available: 2 });
      const before = await balanceOf(s, u.id);
      m.pin(SYMBOL, 2295);
      await match();
      const filled = await row(u.token, placed.body.data.no);
      expect(filled).toMatchObject({ status: 1, fired_leg: 'stop', sell_price: 2295, limit_price: 2290 });
      expect(await balanceOf(s, u.id)).toBe(before + 1_377_000);
      expect(await position(u.token)).toMatchObject({ count: 2, available: 2 });
      await expectLedgerConsistent(s);

      m.pin(SYMBOL, 2800);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 1, fired_leg: 'stop' });
      expect(await position(u.token)).toMatchObject({ count: 2, available: 2 });
      expect(await sells(u.id)).toBe(1);
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)(
    'a stop fired on a gap rests at its limit for its session; its end releases the units, the target stays gone',
    async () => {
      const u = await holder(10);
      const placed = await oco(u.token, { count: 10, ...LEGS });
      m.pin(SYMBOL, 2250);
      await match();
      const fired = await row(u.token, placed.body.data.no);
      expect(fired).toMatchObject({ status: 0, fired_leg: 'stop', limit_price: 2290 });
      // Its session's end (the next session's when the market is closed now), not its year.
      expect(fired.expires_at).toBeLessThan(placed.body.data.expires_at);
      expect(fired.expires_at).toBeLessThanOrEqual(s.clock.now() + 4 * DAY);
      expect(await position(u.token)).toMatchObject({ count: 10, available: 0 });
      await expectLedgerConsistent(s);

      s.clock.advance(5 * DAY);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 3, fired_leg: 'stop' });
      expect(await position(u.token)).toMatchObject({ count: 10, available: 10 });
      await expectLedgerConsistent(s);
      // Past its target now: an expired OCO fires nothing.
      m.pin(SYMBOL, 2800);
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 3 });
      expect(await position(u.token)).toMatchObject({ count: 10, available: 10 });
      expect(await sells(u.id)).toBe(0);
      await expectLedgerConsistent(s);
    },
  );

  it.runIf(enabled)('expiry and cancel release exactly the units it reserved', async () => {
    const u = await holder(12);
    const short = await oco(u.token, { count: 5, valid_days: 2, ...LEGS });
    const long = await oco(u.token, { count: 4, ...LEGS });
    expect(await position(u.token)).toMatchObject({ count: 12, available: 3 });
    await expectLedgerConsistent(s);

    s.clock.advance(3 * DAY);
    await match();
    expect(await row(u.token, short.body.data.no)).toMatchObject({ status: 3, fired_leg: null });
    expect(await row(u.token, long.body.data.no)).toMatchObject({ status: 0 });
    expect(await position(u.token)).toMatchObject({ count: 12, available: 8 });
    await expectLedgerConsistent(s);

    const cancelled = await s.call('orderCancel', {
      token: u.token,
      body: { no: long.body.data.no },
      headers: idem(),
    });
    expect(cancelled.body).toMatchObject({ msg: 'ok', data: { status: 2 } });
    expect(await position(u.token)).toMatchObject({ count: 12, available: 12 });
    // Cancelled means both legs: neither fires on later moves.
    m.pin(SYMBOL, 2800);
    await match();
    m.pin(SYMBOL, 2200);
    await match();
    expect(await position(u.token)).toMatchObject({ count: 12, available: 12 });
    expect(await sells(u.id)).toBe(0);
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)('the reserved units cannot be sold elsewhere', async () => {
    const u = await holder(10);
    await oco(u.token, { count: 7, ...LEGS });
    const balance = await balanceOf(s, u.id);
    const market = await s.call('dealSell', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: 4, price: 2500 },
      headers: idem(),
    });
    expect(market.body).toMatchObject({ msg: 'no', data: 'errors.insufficientShares' });
    const gtt = await s.call('dealSell', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: 4, price: 2690, trigger: 2700, order_type: 'gtt' },
      headers: idem(),
    });
    expect(gtt.body).toMatchObject({ msg: 'no', data: 'errors.insufficientShares' });
    const second = await oco(u.token, { count: 4, ...LEGS });
    expect(second.body).toMatchObject({ msg: 'no', data: 'errors.insufficientShares' });
    // The free units still sell.
    const rest = await s.call('dealSell', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: 3, price: 2500 },
      headers: idem(),
    });
    expect(rest.body).toMatchObject({ msg: 'ok', data: { status: 1 } });
    expect(await balanceOf(s, u.id)).toBe(balance + 750_000);
    expect(await position(u.token)).toMatchObject({ count: 7, available: 0 });
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)('two match runs racing, at a target and at a stop, fill it once', async () => {
    // A second match run whose market quotes below the stop, racing the job at a quote past the target.
    const low = new Proxy(s.deps.market, {
      get(target, prop) {
        if (prop === 'quote')
          return (symbol: string) => {
            const q = target.quote(symbol);
            return q && symbol === SYMBOL ? { ...q, price: 2295 } : q;
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as MarketProvider;
    const lowDeps: Deps = { ...s.deps, market: low };
    for (let round = 0; round < 4; round++) {
      const u = await holder(10);
      const placed = await oco(u.token, { count: 10, ...LEGS });
      const before = await balanceOf(s, u.id);
      m.pin(SYMBOL, 2710);
      const runs = [matchPendingOrders(s.deps), matchPendingOrders(lowDeps), matchPendingOrders(s.deps)];
      const results = await Promise.allSettled(round % 2 ? runs.reverse() : runs);
      for (const r of results) expect(r.status).toBe('fulfilled');
      const done = await row(u.token, placed.body.data.no);
      expect(done.status).toBe(1);
      expect(['target', 'stop']).toContain(done.fired_leg);
      // Whichever leg fired, the units were sold once, at the quote of the run that filled it —
      // not always the run that fired it: a stop leg marked at 2,295 rests as a sell limit at 2,290,
      // and a run that then reads 2,710 fills it there (a sell limit fills at or above its limit).
      expect([2710, 2295]).toContain(done.sell_price);
      expect(done.sell_price).toBeGreaterThanOrEqual(
        done.fired_leg === 'target' ? LEGS.price : LEGS.stop_price,
      );
      expect(await balanceOf(s, u.id)).toBe(before + done.sell_price * 10 * 100);
      expect(await sells(u.id)).toBe(1);
      expect(await position(u.token)).toBeNull();
      await expectLedgerConsistent(s);
    }
  });

  it.runIf(enabled)('refuses bad input in the user language and changes nothing', async () => {
    const u = await holder(10);
    const balance = await balanceOf(s, u.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ count: 1, ...LEGS, trigger: 2500, price: 2490 }, 'errors.ocoTarget'],
      [{ count: 1, ...LEGS, trigger: 2400, price: 2390 }, 'errors.ocoTarget'],
      [{ count: 1, ...LEGS, stop_trigger: 2500, stop_price: 2490 }, 'errors.ocoStop'],
      [{ count: 1, ...LEGS, stop_trigger: 2600, stop_price: 2590 }, 'errors.ocoStop'],
      [{ count: 1, ...LEGS, price: 2710 }, 'errors.triggerLimit'],
      [{ count: 1, ...LEGS, stop_price: 2310 }, 'errors.triggerLimit'],
      [{ count: 1, price: 2690, trigger: 2700 }, 'errors.ocoBothTriggers'],
      [{ count: 1, price: 2690, stop_trigger: 2300, stop_price: 2290 }, 'errors.ocoBothTriggers'],
      [{ count: 1, ...LEGS, stop_price: undefined }, 'errors.ocoBothTriggers'],
      [{ count: 11, ...LEGS }, 'errors.insufficientShares'],
      [{ count: 1, ...LEGS, valid_days: 366 }, 'errors.gttValidity'],
      [{ count: 1, ...LEGS, stop_trigger: 1000, stop_price: 990 }, 'errors.limitOutsideBand'],
    ];
    for (const [body, error] of cases) {
      const res = await oco(u.token, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body, JSON.stringify(body)).toMatchObject({ msg: 'no', data: error });
    }
    // A buy OCO is not offered; a stop leg on another order type is refused.
    const buy = await oco(u.token, { count: 1, ...LEGS }, 'dealBuy');
    expect(buy.body).toMatchObject({ msg: 'no', data: 'errors.ocoSellOnly' });
    const stray = await s.call('dealSell', {
      token: u.token,
      body: { mold: 'stock', tag: SYMBOL, count: 1, order_type: 'gtt', ...LEGS },
      headers: idem(),
    });
    expect(stray.body).toMatchObject({ msg: 'no', data: 'errors.ocoOnly' });
    // The answer is in the user's language: the message keys exist in every locale (unit test).
    expect(await balanceOf(s, u.id)).toBe(balance);
    expect(await position(u.token)).toMatchObject({ count: 10, available: 10 });
    const open = await s.call('orderList', { token: u.token, query: { tag: SYMBOL, status: 0 } });
    expect(open.body.data.rows).toEqual([]);
    await expectLedgerConsistent(s);
  });

  it.runIf(enabled)('modify changes an armed OCO quantity exactly, and refuses its prices', async () => {
    const u = await holder(10);
    const placed = await oco(u.token, { count: 4, ...LEGS });
    const no = placed.body.data.no;
    const modify = (body: Record<string, unknown>) =>
      s.call('orderModify', { token: u.token, body: { no, ...body }, headers: idem() });
    for (const body of [{ trigger: 2750 }, { price: 2680 }, { count: 5, price: 2680 }]) {
      const res = await modify(body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ msg: 'no', data: 'errors.ocoModify' });
    }
    expect(await position(u.token)).toMatchObject({ available: 6 });
    const more = await modify({ count: 9 });
    expect(more.body.data).toMatchObject({ count: 9, trigger_price: 2700, stop_trigger: 2300, status: 0 });
    expect(await position(u.token)).toMatchObject({ available: 1 });
    expect((await modify({ count: 11 })).body).toMatchObject({
      msg: 'no',
      data: 'errors.insufficientShares',
    });
    const fewer = await modify({ count: 3 });
    expect(fewer.body.data).toMatchObject({ count: 3 });
    expect(await position(u.token)).toMatchObject({ available: 7 });
    await expectLedgerConsistent(s);

    // Fired (its stop, on a gap), it is a resting limit: its limit can move, its triggers cannot.
    m.pin(SYMBOL, 2250);
    await match();
    expect(await row(u.token, no)).toMatchObject({ status: 0, fired_leg: 'stop' });
    expect((await modify({ trigger: 2310 })).body).toMatchObject({
      msg: 'no',
      data: 'errors.alreadyTriggered',
    });
    const lower = await modify({ price: 2240 });
    expect(lower.body.data).toMatchObject({ limit_price: 2240, stop_limit: 2240, target_limit: 2690 });
    await match();
    expect(await row(u.token, no)).toMatchObject({ status: 1, fired_leg: 'stop', sell_price: 2250 });
    expect(await position(u.token)).toMatchObject({ count: 7, available: 7 });
    await expectLedgerConsistent(s);
  });
});
