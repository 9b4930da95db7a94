import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromMinor, priceToTicks, toMinor, tradeValueMinor } from '#shared/money';
import { chargesFor } from '../../server/trading/charges';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import {
  balanceOf,
  controlMarket,
  credit,
  expectLedgerConsistent,
  idem,
  insertBlockItem,
  type MarketControl,
  setTradePassword,
  toSession,
} from '../support/trading';

/**
 * The block window (DESIGN "Block/QIP"): a block/QIP lot is priced by the server within
 * ±BLOCK_BAND_BPS (default 1 %) of the reference price — the live market price when the order is
 * placed — so a lot is never a discount to resell. The night-arbitrage case: a lot bought in one
 * session and sold in the next at an unchanged market gains at most the band; a lot at the market
 * loses its charges. Both dialects; the ledger audit after each.
 */
const RICH = 1_000_000_000;
const SYMBOL = 'RELIANCE.NS';
const MARKET = 2500;
const DAY = 24 * 3600 * 1000;

describe.each(DIALECTS)('the block window on $name', ({ name, enabled }) => {
  let s: TestServer;
  let m: MarketControl;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    m = controlMarket(s);
  });
  afterEach(async () => {
    if (s) await expectLedgerConsistent(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function buyer() {
    const u = await s.signUp();
    await credit(s, u.id, RICH);
    return { ...u, code: await setTradePassword(s, u.id) };
  }
  const listed = async (token: string, id: number) =>
    (await s.call('blockList', { token, body: { mold: 'bulk' } })).body.data.rows.find(
      (r: { id: number }) => r.id === id,
    );
  const buy = (u: { token: string; code: string }, id: number, price: number, count = 100) =>
    s.call('dealBuy', {
      token: u.token,
      body: { mold: 'bulk', tag: SYMBOL, id, count, price, stock_password: u.code },
      headers: idem(),
    });

  it.runIf(enabled)('prices a lot inside ±1 % of the live market, whatever its ask', async () => {
    toSession(s, SYMBOL);
    m.pin(SYMBOL, MARKET);
    const u = await buyer();
    const cases: Array<[ask: number, priced: number]> = [
      [2375, 2475], // 5 % under the market: the window's lower edge
      [2625, 2525], // 5 % over: its upper edge
      [2490, 2490], // inside: the ask
    ];
    for (const [ask, priced] of cases) {
      const id = await insertBlockItem(s, { tag: SYMBOL, price: ask });
      expect(await listed(u.token, id), `ask ${ask}`).toMatchObject({ price: priced, market_price: MARKET });
      const res = await buy(u, id, priced);
      const value = tradeValueMinor(priceToTicks(priced), 100);
      expect(res.body.data, `ask ${ask}`).toMatchObject({
        status: 1,
        price: priced,
        // A stock buy's charges on the lot's value.
        price_all: fromMinor(
          value +
            chargesFor(s.config.charges, s.deps.market.instrument(SYMBOL), 'buy', value, 'delivery').total,
        ),
      });
    }
    // The market moves: the window moves with it when the order is placed.
    m.pin(SYMBOL, 2600);
    const id = await insertBlockItem(s, { tag: SYMBOL, price: 2375 });
    expect(await listed(u.token, id)).toMatchObject({ price: 2574 });
    // A price the user saw that the window has left behind is refused (the list's is current).
    const stale = await buy(u, id, 2475);
    expect(stale.body.data).toBe('errors.priceChanged');
    m.pin(SYMBOL, MARKET);
  });

  it.runIf(enabled)(
    'night arbitrage: bought in one session, sold in the next at an unchanged market, a lot gains at most the band',
    async () => {
      toSession(s, SYMBOL);
      m.pin(SYMBOL, MARKET);
      const figures: string[] = [];
      for (const [label, ask] of [
        ['at the market + 0.2 % (the seed’s kind)', 2505],
        ['asked 5 % under the market (held at the window’s edge)', 2375],
      ] as const) {
        const u = await buyer();
        const id = await insertBlockItem(s, { tag: SYMBOL, price: ask });
        const price = (await listed(u.token, id)).price;
        const bought = await buy(u, id, price);
        expect(bought.body.data).toMatchObject({ status: 1, sellable: false });
        const paid = toMinor(bought.body.data.price_all)!;
        // Locked until the next session: sold there, the market where it was.
        const tooSoon = await s.call('dealSell', {
          token: u.token,
          body: { no: bought.body.data.no },
          headers: idem(),
        });
        expect(tooSoon.body.data).toBe('errors.lotLocked');
        s.clock.advance(DAY);
        toSession(s, SYMBOL);
        m.pin(SYMBOL, MARKET);
        const sold = await s.call('dealSell', {
          token: u.token,
          body: { no: bought.body.data.no },
          headers: idem(),
        });
        expect(sold.body.data).toMatchObject({ state: 'sell', sell_price: MARKET });
        const received = toMinor(sold.body.data.price_all)!;
        const gain = received - paid;
        const value = tradeValueMinor(priceToTicks(price), 100);
        // Never more than the band (1 % of the lot's value).
        expect(gain * 10_000).toBeLessThanOrEqual(value * s.config.blockBandBps);
        expect(await balanceOf(s, u.id)).toBe(RICH + gain);
        figures.push(
          `[${name}] ${label}: ask ${ask}, priced ${price}, paid ${fromMinor(paid)} (fee ${bought.body.data.fee}), ` +
            `sold at ${MARKET} for ${fromMinor(received)}: ${gain >= 0 ? 'gain' : 'loss'} ${fromMinor(Math.abs(gain))} ` +
            `(${((gain / value) * 100).toFixed(3)} % of the value; band ${s.config.blockBandBps / 100} %)`,
        );
        if (ask > MARKET) expect(gain).toBeLessThan(0);
      }
      console.log(figures.join('\n'));
    },
  );
});
