import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DayPosition, OrderProduct } from '#shared/contract/trading';
import { lastSession, nextSession } from '#shared/market-hours';
import { fromMinor, priceToTicks, tradeValueMinor } from '#shared/money';
import { chargesFor } from '../../server/trading/charges';
import { squareOffIntraday } from '../../server/trading/squareoff';
import { moneyOf } from '../support/money-fields';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  expectLedgerConsistent,
  fundedUser,
  type MarketControl,
  stockOrder,
  toSession,
} from '../support/trading';

/**
 * Today's positions (`positions`, server/trading/day-positions.ts): one row per instrument and
 * product with the day's net units, averages, P&L at the server's quote, the charges, what Exit
 * may sell and an intraday position's square-off time. Exit is an ordinary sell: an intraday
 * position exited before the close leaves nothing for the square-off job. Prices pinned; the
 * ledger audit after each test.
 */
const RICH = 100_000_000;
const SYMBOL = 'RELIANCE.NS';
const OTHER = 'TCS.NS';

describe.each(DIALECTS)('positions on $name', ({ name, enabled }) => {
  let s: TestServer;
  let market: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    market = controlMarket(s);
  });
  afterEach(async () => {
    if (s) await expectLedgerConsistent(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  const charges = (side: 'buy' | 'sell', value: number, product: OrderProduct, symbol = SYMBOL) =>
    chargesFor(s.config.charges, s.deps.market.instrument(symbol), side, value, product).total;
  const trader = () => fundedUser(s, RICH);
  const order = (side: 'dealBuy' | 'dealSell', token: string, body: Record<string, unknown>) =>
    stockOrder(s, side, token, SYMBOL, body);
  const positions = async (token: string) => {
    const answer = await s.call('positions', { token });
    expect(answer.status).toBe(200);
    return answer.body.data as { rows: DayPosition[]; pnl: string; as_of: number };
  };

  it.runIf(enabled)(
    'lists the day’s intraday and delivery trades per instrument with P&L at the quote and the square-off time',
    async () => {
      toSession(s, SYMBOL);
      market.pin(SYMBOL, 2500);
      market.pin(OTHER, 4000);
      const u = await trader();
      const close = lastSession('NSE', s.clock.now()).close;
      expect(
        (await order('dealBuy', u.token, { count: 7, price: 2500, product: 'intraday' })).body.data,
      ).toMatchObject({ status: 1, product: 'intraday' });
      await order('dealBuy', u.token, { count: 3, price: 2500 });
      await order('dealBuy', u.token, { tag: OTHER, count: 2, price: 4000, product: 'intraday' });
      market.pin(SYMBOL, 2510.5);
      await order('dealSell', u.token, { count: 2, price: 2510.5, product: 'intraday' });
      market.pin(SYMBOL, 2520);
      market.pin(OTHER, 3990);

      const answer = await positions(u.token);
      const buy7 = tradeValueMinor(priceToTicks(2500), 7);
      const sell2 = tradeValueMinor(priceToTicks(2510.5), 2);
      const intradayPnl = sell2 - buy7 + tradeValueMinor(priceToTicks(2520), 5);
      // 5 × (2520 − 2500) + 2 × (2510.50 − 2500) = 100 + 21
      expect(intradayPnl).toBe(12_100);
      const deliveryPnl = 3 * 2000;
      const otherPnl = -2 * 1000;
      expect(answer.rows).toEqual([
        {
          stock: SYMBOL,
          name: expect.any(String),
          market: expect.any(String),
          region: 'IN',
          decimals: 2,
          product: 'intraday',
          net: 5,
          buy_count: 7,
          buy_avg: 2500,
          sell_count: 2,
          sell_avg: 2510.5,
          prasent: 2520,
          pnl: fromMinor(intradayPnl),
          charges: fromMinor(charges('buy', buy7, 'intraday') + charges('sell', sell2, 'intraday')),
          exitable: 5,
          square_at: close,
          as_of: expect.any(Number),
        },
        expect.objectContaining({ stock: OTHER, product: 'intraday', net: 2, pnl: fromMinor(otherPnl) }),
        expect.objectContaining({
          stock: SYMBOL,
          product: 'delivery',
          net: 3,
          buy_avg: 2500,
          pnl: fromMinor(deliveryPnl),
          exitable: 3,
          square_at: null,
        }),
      ]);
      // Intraday rows first, by name; the total is the rows' sum.
      expect(answer.rows[0]!.name.localeCompare(answer.rows[1]!.name)).toBeLessThan(0);
      expect(answer.pnl).toBe(fromMinor(intradayPnl + otherPnl + deliveryPnl));
      // Every money field of the answer is an amount with two decimals (the app's one formatter).
      const money = moneyOf('positions', answer);
      expect(money.map((m) => m.path).sort()).toEqual(
        [...Array(3).fill(['rows.[].charges', 'rows.[].pnl']).flat(), 'pnl'].sort(),
      );
      expect(money.filter(({ value }) => typeof value !== 'string' || !/^-?\d+\.\d{2}$/.test(value))).toEqual(
        [],
      );

      // Per user: another user's token sees none of it.
      const other = await trader();
      expect(await positions(other.token)).toMatchObject({ rows: [], pnl: '0.00' });
      // A visitor without a session is sent to log in.
      const anon = await s.call('positions', {});
      expect(anon.body.msg).toBe('logout');

      // The next session starts a new day: yesterday's delivery buy is a holding, not a position.
      s.clock.advance(close + 1000 - s.clock.now());
      expect(await squareOffIntraday(s.deps)).toEqual({ squared: 2 });
      s.clock.advance(nextSession('NSE', s.clock.now()).open + 60_000 - s.clock.now());
      expect((await positions(u.token)).rows).toEqual([]);
    },
  );

  it.runIf(enabled)(
    'an intraday position exited before the close leaves no position, and the square-off has nothing to do',
    async () => {
      toSession(s, SYMBOL);
      market.pin(SYMBOL, 2500);
      const u = await trader();
      await order('dealBuy', u.token, { count: 4, price: 2500, product: 'intraday' });
      await order('dealBuy', u.token, { count: 1, price: 2500 });
      market.pin(SYMBOL, 2490);
      const [open] = (await positions(u.token)).rows;
      expect(open).toMatchObject({ product: 'intraday', net: 4, exitable: 4, pnl: '-40.00' });

      // Exit: the ordinary intraday sell of what the row says Exit sells.
      const exit = await order('dealSell', u.token, {
        count: open!.exitable,
        price: 2490,
        product: 'intraday',
      });
      expect(exit.body.data).toMatchObject({ status: 1, state: 'sell', product: 'intraday', count: 4 });
      const after = await positions(u.token);
      expect(after.rows[0]).toMatchObject({
        product: 'intraday',
        net: 0,
        exitable: 0,
        square_at: null,
        pnl: '-40.00',
      });
      // The delivery unit is still there, and still exitable as delivery.
      expect(after.rows[1]).toMatchObject({ product: 'delivery', net: 1, exitable: 1 });
      // A second intraday exit is refused: nothing intraday is open.
      const again = await order('dealSell', u.token, { count: 1, price: 2490, product: 'intraday' });
      expect(again.body).toMatchObject({ msg: 'no', data: 'errors.noIntradayPosition' });

      // After the close the square-off job sells nothing and moves no money.
      const balance = await balanceOf(s, u.id);
      const orders = (await s.call('orderList', { token: u.token, query: { limit: 50 } })).body.data.count;
      s.clock.advance(lastSession('NSE', s.clock.now()).close + 30_000 - s.clock.now());
      expect(await squareOffIntraday(s.deps)).toEqual({ squared: 0 });
      expect(await balanceOf(s, u.id)).toBe(balance);
      expect((await s.call('orderList', { token: u.token, query: { limit: 50 } })).body.data.count).toBe(
        orders,
      );
      expect((await positions(u.token)).rows[0]).toMatchObject({
        product: 'intraday',
        net: 0,
        square_at: null,
      });
      // The delivery unit stays held.
      expect(
        (await s.call('holdings', { token: u.token, query: { type: 'stock' } })).body.data.rows,
      ).toMatchObject([{ stock: SYMBOL, count: 1 }]);
    },
  );

  it.runIf(enabled)(
    'an open intraday position squared off at the close shows closed with its P&L',
    async () => {
      toSession(s, SYMBOL);
      market.pin(SYMBOL, 2500);
      const u = await trader();
      await order('dealBuy', u.token, { count: 2, price: 2500, product: 'intraday' });
      market.pin(SYMBOL, 2530);
      s.clock.advance(lastSession('NSE', s.clock.now()).close + 30_000 - s.clock.now());
      expect(await squareOffIntraday(s.deps)).toEqual({ squared: 1 });
      const [row] = (await positions(u.token)).rows;
      expect(row).toMatchObject({
        net: 0,
        sell_count: 2,
        sell_avg: 2530,
        pnl: '60.00',
        exitable: 0,
        square_at: null,
      });
    },
  );

  it.runIf(enabled)('takes no parameters: one it does not know is ignored', async () => {
    const u = await trader();
    const answer = await s.call('positions', { token: u.token, query: { product: 'intraday', _: '1' } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ rows: [], pnl: '0.00' });
  });
});
