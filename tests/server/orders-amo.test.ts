import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointName } from '#shared/contract/index';
import type { OrderProduct } from '#shared/contract/trading';
import { lastSession, nextSession } from '#shared/market-hours';
import { fromMinor, priceToTicks, ticksToPrice, toMinor, tradeValueMinor } from '#shared/money';
import { protectedLimit } from '#shared/rules';
import { JOBS, runJob } from '../../server/jobs/index';
import { chargesFor } from '../../server/trading/charges';
import { moneyOf } from '../support/money-fields';
import { DIALECTS, startTestServer, stillClock, type TestServer } from '../support/server';
import {
  balanceOf,
  credit,
  expectLedgerConsistent,
  fundedUser,
  idem,
  ledgerOf,
  setTradePassword,
  stockOrder,
  toSession,
} from '../support/trading';

/**
 * After-market orders on the server (a market order on a closed market is pending until
 * the next open and fills at the open's price, never at the closed market's last one), IOC,
 * intraday square-off at the close, and the ticket's fields refused when malformed. The simulator's
 * own prices (nothing pinned: the open is the session's first price), with the default charges.
 * The clock stands at TEST_EPOCH (a Wednesday 10:30 IST) until a test moves it; the ledger audit after each test.
 */
const RICH = 100_000_000;
const SYMBOL = 'RELIANCE.NS';
const MINUTE = 60_000;

describe.each(DIALECTS)('after-market orders, IOC and intraday on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    // Still: each test compares what the server took with the quote it reads after.
    s = await startTestServer(name, {}, { clock: stillClock() });
  });
  afterEach(async () => {
    if (s) await expectLedgerConsistent(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  const match = () => runJob(s.deps, JOBS.find((j) => j.name === 'orders:match')!);
  const squareOff = () => runJob(s.deps, JOBS.find((j) => j.name === 'orders:squareoff')!);
  const quote = () => s.deps.market.quote(SYMBOL)!;
  const charges = (side: 'buy' | 'sell', value: number, product: OrderProduct = 'delivery') =>
    chargesFor(s.config.charges, s.deps.market.instrument(SYMBOL), side, value, product).total;
  const trader = () => fundedUser(s, RICH);
  const order = (side: 'dealBuy' | 'dealSell', token: string, body: Record<string, unknown>) =>
    stockOrder(s, side, token, SYMBOL, body);
  /** To `ms` after the close of the session the clock is in (or the last one). */
  function afterClose(ms = MINUTE) {
    const now = s.clock.now();
    s.clock.advance(lastSession('NSE', now).close + ms - now);
  }
  function toNextOpen(ms: number) {
    const now = s.clock.now();
    s.clock.advance(nextSession('NSE', now).open + ms - now);
  }
  const row = async (token: string, no: string) => {
    const list = await s.call('orderList', { token, query: { tag: SYMBOL, limit: 50 } });
    return list.body.data.rows.find((r: { no: string }) => r.no === no);
  };

  it.runIf(enabled)(
    'an AMO buy’s required amount is value at the last price + charges + the protection: what it holds',
    async () => {
      toSession(s, SYMBOL);
      afterClose();
      const u = await trader();
      const seen = quote().price;
      const ask = { tag: SYMBOL, side: 'buy' as const, count: 10, price: seen };
      const quoted = (await s.call('orderQuote', { token: u.token, query: { ...ask, order_type: 'market' } }))
        .body.data;
      const value = tradeValueMinor(priceToTicks(seen), 10);
      const fee = charges('buy', value);
      const limit = protectedLimit('buy', priceToTicks(seen));
      const held = tradeValueMinor(limit, 10) + charges('buy', tradeValueMinor(limit, 10));
      // Each line named, and the lines add up to what is held.
      expect(quoted).toMatchObject({
        price: seen,
        value: fromMinor(value),
        net: fromMinor(value + fee),
        protection: fromMinor(held - value - fee),
        limit: ticksToPrice(limit),
        required: fromMinor(held),
        available: fromMinor(RICH),
        blocked: '0.00',
      });
      expect(toMinor(quoted.charges.total)).toBe(fee);
      // The protection's limit is a price of the instrument: whole paise.
      expect(limit % 100).toBe(0);
      expect(held - value - fee).toBeGreaterThan(0);
      // A limit order and a market order in session hold nothing beyond value and charges.
      const asLimit = (await s.call('orderQuote', { token: u.token, query: { ...ask, order_type: 'limit' } }))
        .body.data;
      expect(asLimit).toMatchObject({ protection: '0.00', limit: null, required: fromMinor(value + fee) });
      // Placed: exactly the required amount leaves Available, and is blocked beside it.
      const placed = (await order('dealBuy', u.token, { count: 10, price: seen, order_type: 'market' })).body
        .data;
      expect(placed).toMatchObject({ status: 0, amo: true, price_all: fromMinor(held) });
      expect(await balanceOf(s, u.id)).toBe(RICH - held);
      const after = (await s.call('orderQuote', { token: u.token, query: { ...ask, count: 1 } })).body.data;
      expect(after).toMatchObject({ available: fromMinor(RICH - held), blocked: fromMinor(held) });
      // A sell is quoted with its floor and requires nothing.
      const sell = (
        await s.call('orderQuote', {
          token: u.token,
          query: { ...ask, side: 'sell', order_type: 'market' },
        })
      ).body.data;
      expect(sell).toMatchObject({
        protection: '0.00',
        required: '0.00',
        limit: ticksToPrice(protectedLimit('sell', priceToTicks(seen))),
      });

      // Every money field of these answers is a two-decimal amount (never "1969.0960").
      const answers: Array<[EndpointName, unknown]> = [
        ['orderQuote', quoted],
        ['orderQuote', after],
        ['orderQuote', sell],
        ['dealBuy', placed],
        ['orderList', (await s.call('orderList', { token: u.token, query: { tag: SYMBOL } })).body.data],
        ['userInfo', (await s.call('userInfo', { token: u.token })).body.data],
        ['portfolioSummary', (await s.call('portfolioSummary', { token: u.token })).body.data],
        ['bill', (await s.call('bill', { token: u.token, query: { type: 'all' } })).body.data],
      ];
      const walked = answers.flatMap(([name, data]) =>
        moneyOf(name, data).map(({ path, value }) => ({ at: `${name} ${path}`, value })),
      );
      expect(
        walked.filter(({ value }) => typeof value !== 'string' || !/^-?\d+\.\d{2}$/.test(value)),
      ).toEqual([]);
      expect(walked.length).toBeGreaterThan(60);
      await s.call('orderCancel', { token: u.token, body: { no: placed.no }, headers: idem() });
      expect(await balanceOf(s, u.id)).toBe(RICH);
    },
  );

  it.runIf(enabled)(
    'a market buy on a closed market is an AMO: pending until the open, filled at the open’s price',
    async () => {
      toSession(s, SYMBOL);
      afterClose();
      const u = await trader();
      const closed = quote();
      const placedAt = s.clock.now();
      const placed = await order('dealBuy', u.token, { count: 10, price: closed.price });
      const next = nextSession('NSE', placedAt);
      // Reserved at the price seen moved by the market order's 1 % protection, with its charges.
      const limit = protectedLimit('buy', priceToTicks(closed.price));
      const reserved = tradeValueMinor(limit, 10) + charges('buy', tradeValueMinor(limit, 10));
      expect(placed.body).toMatchObject({
        msg: 'ok',
        data: {
          status: 0,
          amo: true,
          send_at: next.open,
          expires_at: next.close,
          product: 'delivery',
          validity: 'day',
          limit_price: ticksToPrice(limit),
          price_all: fromMinor(reserved),
        },
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - reserved);
      // The records show it pending with its send time.
      expect(await row(u.token, placed.body.data.no)).toMatchObject({
        status: 0,
        amo: true,
        send_at: next.open,
      });
      // Nothing before the open, however often the match job runs.
      await match();
      s.clock.advance(next.open - 1000 - s.clock.now());
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 0 });

      // Sent at the open: filled at the session's first price, not at the closed market's last.
      toNextOpen(30_000);
      await match();
      const open = quote().open;
      const [firstBar] = s.deps.market.candles(SYMBOL, '1m');
      expect(firstBar!.t).toBe(next.open);
      expect(open).toBe(firstBar!.o);
      const filled = await row(u.token, placed.body.data.no);
      const value = tradeValueMinor(priceToTicks(open), 10);
      const fee = charges('buy', value);
      expect(filled).toMatchObject({
        status: 1,
        amo: true,
        price: open,
        value: fromMinor(value),
        fee: fromMinor(fee),
        price_all: fromMinor(value + fee),
      });
      expect(open).not.toBe(closed.price);
      expect(await balanceOf(s, u.id)).toBe(RICH - value - fee);
      const held = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
      expect(held).toMatchObject([{ stock: SYMBOL, count: 10, avg_price: open }]);
      console.log(
        `[${name}] AMO ${placed.body.data.no}: placed ${new Date(placedAt).toISOString()} at the close ${closed.price}` +
          ` (reserved ${fromMinor(reserved)}), pending, send_at ${new Date(next.open).toISOString()},` +
          ` filled at the open ${open}: ${fromMinor(value)} + charges ${fromMinor(fee)} = ${fromMinor(value + fee)}`,
      );
    },
  );

  it.runIf(enabled)('an AMO cancelled before the open gets back exactly what it reserved', async () => {
    afterClose();
    const u = await trader();
    const placed = await order('dealBuy', u.token, { count: 3, price: quote().price, order_type: 'market' });
    expect(placed.body.data).toMatchObject({ status: 0, amo: true });
    const cancelled = await s.call('orderCancel', {
      token: u.token,
      body: { no: placed.body.data.no },
      headers: idem(),
    });
    expect(cancelled.body.data).toMatchObject({ status: 2, amo: true });
    expect(await balanceOf(s, u.id)).toBe(RICH);
    expect((await ledgerOf(s, u.id)).slice(-2).map((l) => l.reason)).toEqual(['buyStock', 'orderRefund']);
    // The open sends nothing.
    toNextOpen(MINUTE);
    await match();
    expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 2 });
    expect(await balanceOf(s, u.id)).toBe(RICH);
  });

  it.runIf(enabled)(
    'a limit buy the closed market’s last price would fill is an AMO at its own limit, filled at the open’s price',
    async () => {
      toSession(s, SYMBOL);
      afterClose();
      const u = await trader();
      const closed = quote();
      // 5 % over the last price: before, it filled at once at the closed market's price.
      const limit = Math.round(priceToTicks(closed.price) * 1.05);
      const placed = await order('dealBuy', u.token, {
        count: 4,
        price: ticksToPrice(limit),
        order_type: 'limit',
      });
      const next = nextSession('NSE', s.clock.now());
      const reserved = tradeValueMinor(limit, 4) + charges('buy', tradeValueMinor(limit, 4));
      expect(placed.body).toMatchObject({
        msg: 'ok',
        data: { status: 0, amo: true, send_at: next.open, limit_price: ticksToPrice(limit) },
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - reserved);
      // One that does not reach the last price waits for the open too, never filled while shut.
      const low = Math.round(priceToTicks(closed.price) * 0.97);
      const resting = await order('dealBuy', u.token, {
        count: 2,
        price: ticksToPrice(low),
        order_type: 'limit',
      });
      expect(resting.body.data).toMatchObject({ status: 0, amo: true, send_at: next.open });
      await match();
      expect(await row(u.token, placed.body.data.no)).toMatchObject({ status: 0 });

      toNextOpen(30_000);
      await match();
      const open = quote().open;
      expect(priceToTicks(open)).toBeLessThanOrEqual(limit);
      const value = tradeValueMinor(priceToTicks(open), 4);
      expect(await row(u.token, placed.body.data.no)).toMatchObject({
        status: 1,
        price: open,
        price_all: fromMinor(value + charges('buy', value)),
      });
      // The first limit's reserve beyond what its fill cost came back; the second still holds its
      // own reserve, or paid what its fill cost if the session reached its limit.
      const second = await row(u.token, resting.body.data.no);
      expect([0, 1]).toContain(second.status);
      const secondCost =
        second.status === 1
          ? toMinor(second.price_all)!
          : tradeValueMinor(low, 2) + charges('buy', tradeValueMinor(low, 2));
      expect(await balanceOf(s, u.id)).toBe(RICH - value - charges('buy', value) - secondCost);
    },
  );

  it.runIf(enabled)(
    'an AMO sell holds its units until the open and sells them at the open’s price',
    async () => {
      toSession(s, SYMBOL);
      const u = await trader();
      const bought = await order('dealBuy', u.token, { count: 5, price: quote().price });
      expect(bought.body.data).toMatchObject({ status: 1, amo: false });
      afterClose();
      const placed = await order('dealSell', u.token, { count: 5, price: quote().price });
      expect(placed.body.data).toMatchObject({
        status: 0,
        amo: true,
        send_at: nextSession('NSE', s.clock.now()).open,
      });
      // The units are held: another sell finds none free.
      const again = await order('dealSell', u.token, { count: 1, price: quote().price });
      expect(again.body).toEqual({ msg: 'no', data: 'errors.insufficientShares' });
      const before = await balanceOf(s, u.id);
      toNextOpen(10_000);
      await match();
      const open = quote().open;
      const proceeds = tradeValueMinor(priceToTicks(open), 5);
      expect(await row(u.token, placed.body.data.no)).toMatchObject({
        status: 1,
        sell_price: open,
        price_all: fromMinor(proceeds - charges('sell', proceeds)),
      });
      expect(await balanceOf(s, u.id)).toBe(before + proceeds - charges('sell', proceeds));
    },
  );

  it.runIf(enabled)('IOC: a limit that cannot fill at once is cancelled, one that can fills', async () => {
    toSession(s, SYMBOL);
    const u = await trader();
    const q = quote().price;
    const under = Math.floor(q * 0.95);
    const missed = await order('dealBuy', u.token, {
      count: 2,
      price: under,
      order_type: 'limit',
      validity: 'ioc',
    });
    expect(missed.body.data).toMatchObject({
      status: 2,
      validity: 'ioc',
      amo: false,
      order_type: 'limit',
      reason: 'errors.iocUnfilled',
    });
    expect(await balanceOf(s, u.id)).toBe(RICH);
    const pending = await s.call('orderList', { token: u.token, query: { tag: SYMBOL, status: 0 } });
    expect(pending.body.data.rows).toHaveLength(0);
    // A limit at or above the quote fills at the quote.
    const filled = await order('dealBuy', u.token, {
      count: 2,
      price: Math.ceil(q * 1.02),
      order_type: 'limit',
      validity: 'ioc',
    });
    expect(filled.body.data).toMatchObject({ status: 1, price: quote().price, validity: 'ioc' });
    // A sell limit above the quote: cancelled, its units free again.
    const sell = await order('dealSell', u.token, {
      count: 2,
      price: Math.ceil(q * 1.05),
      order_type: 'limit',
      validity: 'ioc',
    });
    expect(sell.body.data).toMatchObject({ status: 2, reason: 'errors.iocUnfilled' });
    const held = (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows;
    expect(held).toMatchObject([{ count: 2, available: 2 }]);
    // On a closed market an IOC cannot wait for the open: cancelled with that reason, its money back.
    afterClose();
    const closed = await order('dealBuy', u.token, { count: 1, price: quote().price, validity: 'ioc' });
    expect(closed.body.data).toMatchObject({
      status: 2,
      amo: true,
      order_type: 'market',
      reason: 'errors.iocMarketClosed',
    });
    const limitClosed = await order('dealBuy', u.token, {
      count: 1,
      price: Math.ceil(q * 1.02),
      order_type: 'limit',
      validity: 'ioc',
    });
    expect(limitClosed.body.data).toMatchObject({ status: 2, reason: 'errors.iocMarketClosed' });
  });

  it.runIf(enabled)(
    'intraday positions are squared off at the close price with charges; delivery units stay',
    async () => {
      toSession(s, SYMBOL);
      const u = await trader();
      const day = await order('dealBuy', u.token, { count: 7, price: quote().price, product: 'intraday' });
      const sessionClose = lastSession('NSE', s.clock.now()).close;
      expect(day.body.data).toMatchObject({ status: 1, product: 'intraday' });
      await order('dealBuy', u.token, { count: 4, price: quote().price });
      // An intraday sell of 2 during the session: 5 are left to square off.
      const partial = await order('dealSell', u.token, {
        count: 2,
        price: quote().price,
        product: 'intraday',
      });
      expect(partial.body.data).toMatchObject({ status: 1, product: 'intraday' });
      // Nothing before the close.
      await squareOff();
      expect(
        (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows,
      ).toMatchObject([{ count: 9 }]);
      afterClose(30_000);
      expect(lastSession('NSE', s.clock.now()).close).toBe(sessionClose);
      const close = quote().price;
      const before = await balanceOf(s, u.id);
      await squareOff();
      const proceeds = tradeValueMinor(priceToTicks(close), 5);
      // An intraday sell's charges: intraday STT on the sell, no stamp duty.
      const fee = charges('sell', proceeds, 'intraday');
      expect(await balanceOf(s, u.id)).toBe(before + proceeds - fee);
      const sells = (await s.call('orderList', { token: u.token, query: { tag: SYMBOL, status: 1 } })).body
        .data.rows;
      expect(sells[0]).toMatchObject({
        state: 'sell',
        product: 'intraday',
        count: 5,
        sell_price: close,
        fee: fromMinor(fee),
        price_all: fromMinor(proceeds - fee),
      });
      expect(toMinor(sells[0].price_all)).toBe(proceeds - fee);
      expect(
        (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows,
      ).toMatchObject([{ count: 4 }]);
      // Once only.
      await squareOff();
      expect(await balanceOf(s, u.id)).toBe(before + proceeds - fee);
    },
  );

  it.runIf(enabled)(
    'a longer-lived sell holding intraday units is cancelled at the square-off: none carried overnight',
    async () => {
      toSession(s, SYMBOL);
      const u = await trader();
      await order('dealBuy', u.token, { count: 5, price: quote().price, product: 'intraday' });
      // A GTT sell (delivery, valid for days) of the same 5 units holds them past the close.
      const target = Math.round(quote().price * 105) / 100;
      const gtt = await order('dealSell', u.token, {
        count: 5,
        price: target,
        trigger: target,
        order_type: 'gtt',
      });
      expect(gtt.body.data).toMatchObject({ status: 0, order_type: 'gtt' });
      afterClose(30_000);
      const close = quote().price;
      const before = await balanceOf(s, u.id);
      await squareOff();
      expect(await row(u.token, gtt.body.data.no)).toMatchObject({
        status: 2,
        reason: 'errors.squareOffCancelled',
      });
      const proceeds = tradeValueMinor(priceToTicks(close), 5);
      expect(await balanceOf(s, u.id)).toBe(before + proceeds - charges('sell', proceeds, 'intraday'));
      expect((await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows).toEqual(
        [],
      );
    },
  );

  it.runIf(enabled)('malformed ticket fields answer 400, never 500, and move nothing', async () => {
    toSession(s, SYMBOL);
    const u = await trader();
    const price = quote().price;
    const bad: Array<Record<string, unknown>> = [
      { product: 'margin' },
      { product: 1 },
      { validity: 'gtc' },
      { validity: null },
      { order_type: 'amo' },
      { product: 'intraday', order_type: 'gtt', trigger: price * 1.05 },
      { validity: 'ioc', order_type: 'sl', trigger: price * 1.05 },
    ];
    for (const fields of bad) {
      const res = await order('dealBuy', u.token, { count: 1, price, ...fields });
      expect([res.status, res.body], JSON.stringify(fields)).toEqual([
        400,
        { msg: 'no', data: 'errors.invalidInput' },
      ]);
    }
    const sell = await order('dealSell', u.token, { count: 1, price, validity: 'fok' });
    expect(sell.status).toBe(400);
    // A block/QIP buy takes none of them.
    const code = await setTradePassword(s, u.id);
    const block = await s.call('dealBuy', {
      token: u.token,
      body: {
        mold: 'bulk',
        tag: SYMBOL,
        count: 100,
        price,
        id: 1,
        product: 'delivery',
        stock_password: code,
      },
      headers: idem(),
    });
    expect([block.status, block.body.data]).toEqual([400, 'errors.invalidInput']);
    expect(await balanceOf(s, u.id)).toBe(RICH);
  });
});

describe.each(DIALECTS)(
  'after-market orders refused when hours are enforced on $name',
  ({ name, enabled }) => {
    let s: TestServer;
    beforeAll(async () => {
      if (!enabled) return;
      s = await startTestServer(name, { ENFORCE_TRADING_HOURS: '1' });
    });
    afterAll(async () => {
      if (s) await expectLedgerConsistent(s);
      await s?.close();
    });

    it.runIf(enabled)(
      'a market order after the close answers noAvailableTime and moves nothing',
      async () => {
        const now = s.clock.now();
        s.clock.advance(lastSession('NSE', now).close + MINUTE - now);
        const u = await s.signUp();
        await credit(s, u.id, RICH);
        for (const body of [{}, { order_type: 'market' }, { product: 'intraday' }]) {
          const res = await s.call('dealBuy', {
            token: u.token,
            body: {
              mold: 'stock',
              tag: SYMBOL,
              count: 1,
              price: s.deps.market.quote(SYMBOL)!.price,
              ...body,
            },
            headers: idem(),
          });
          expect(res.body).toEqual({ msg: 'no', data: 'errors.noAvailableTime' });
        }
        expect(await balanceOf(s, u.id)).toBe(RICH);
      },
    );
  },
);
