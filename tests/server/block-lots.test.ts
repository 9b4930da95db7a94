import { beforeAll, describe, expect, it } from 'vitest';
import { lastSession, nextSession } from '#shared/market-hours';
import { fromMinor } from '#shared/money';
import { blockServer } from '../support/block';
import { DIALECTS, type TestServer } from '../support/server';
import { balanceOf, idem, ledgerOf, type MarketControl, toSession } from '../support/trading';

/**
 * Block/QIP lots once bought: sold whole by order number at the quote after their lock-in (once,
 * by their owner only, within tolerance of what the user saw, a USD lot at the rate now), the
 * deal records' tabs, and an unsold lot counted at market value in total assets. Buys:
 * block-buy.test.ts. Setup: support/block.ts.
 */
describe.each(DIALECTS)('block and QIP lots on $name', ({ name, enabled }) => {
  const t = blockServer(name, enabled);
  const { buyer, buy: blockBuy, relianceBulk, aaplBulk, passLockIn, saleCharges } = t;
  let s: TestServer;
  let m: MarketControl;
  beforeAll(() => {
    ({ s, m } = t);
  });

  describe.skipIf(!enabled)('holdings and orders', () => {
    it('sells a block holding whole at the quote by its order number, once; others cannot', async () => {
      const u = await buyer();
      const bought = await blockBuy(u.token, relianceBulk(u.code));
      const no = bought.body.data.no;
      await passLockIn(bought.body.data);
      const stranger = await buyer();
      const theirs = await s.call('dealSell', { token: stranger.token, body: { no }, headers: idem() });
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual({ msg: 'no', data: 'errors.notFound' });

      const before = await balanceOf(s, u.id);
      m.pin('RELIANCE.NS', 2530.5);
      try {
        const sold = await s.call('dealSell', {
          token: u.token,
          body: { no, price: 2412.37, sell_price: 2530.5 },
          headers: idem(),
        });
        // 100 × 2,530.50 = 253,050.00, less a stock sell's charges; the profit is SPEC's
        // (sell − price) × count, before them.
        const charges = saleCharges('RELIANCE.NS', 25_305_000);
        expect(charges).toBeGreaterThan(0);
        expect(sold.body.data).toMatchObject({
          mold: 'bulk',
          state: 'sell',
          status: 1,
          count: 100,
          price: 2412.37,
          sell_price: 2530.5,
          value: '253050.00',
          fee: fromMinor(charges),
          price_all: fromMinor(25_305_000 - charges),
          profit: '11813.00',
        });
        expect(await balanceOf(s, u.id)).toBe(before + 25_305_000 - charges);
        expect((await ledgerOf(s, u.id)).slice(-2)).toMatchObject([
          { reason: 'sellStock', amount: 25_305_000 },
          { reason: 'transactionExpenses', amount: -charges },
        ]);
        const twice = await s.call('dealSell', { token: u.token, body: { no }, headers: idem() });
        expect(twice.body).toEqual({ msg: 'no', data: 'errors.alreadySold' });
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
      const all = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 0 } });
      expect(all.body.data.rows.map((r: { state: string }) => r.state)).toEqual(['sell', 'buy']);
      expect(all.body.data.rows[1].sellable).toBe(false);
      const ok = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 1 } });
      expect(ok.body.data.rows).toHaveLength(2);
      const failed = await s.call('dealList', { token: u.token, body: { mold: 'bulk', status: 2 } });
      expect(failed.body.data.rows).toHaveLength(0);
      expect(
        (await s.call('dealList', { token: stranger.token, body: { mold: 'bulk' } })).body.data.rows,
      ).toEqual([]);
    });

    it('refuses a holding sale when the quote fell beyond tolerance below what the user saw', async () => {
      const u = await buyer();
      const bought = await blockBuy(u.token, aaplBulk(u.code));
      await passLockIn(bought.body.data);
      const before = await balanceOf(s, u.id);
      const res = await s.call('dealSell', {
        token: u.token,
        body: { no: bought.body.data.no, sell_price: 250 },
        headers: idem(),
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.priceMoved' });
      expect(await balanceOf(s, u.id)).toBe(before);
      // US lot: (200 − 190.55) × 50 × 88.5 = 41,816.25; 200 × 50 × 88.5 = 885,000.00 less charges
      // (brokerage and its GST: no Indian levies on a US share).
      const sold = await s.call('dealSell', {
        token: u.token,
        body: { no: bought.body.data.no },
        headers: idem(),
      });
      const charges = saleCharges('AAPL', 88_500_000);
      expect(sold.body.data).toMatchObject({
        profit: '41816.25',
        value: '885000.00',
        price_all: fromMinor(88_500_000 - charges),
        type: 'US',
      });
    });

    it('a lot is bought and sold only in its market’s session: on a closed market both are refused and nothing moves', async () => {
      const u = await buyer();
      const bought = await blockBuy(u.token, relianceBulk(u.code));
      await passLockIn(bought.body.data);
      // A minute after the close, whatever ENFORCE_TRADING_HOURS says (off here).
      const now = s.clock.now();
      s.clock.advance(lastSession('NSE', now).close + 60_000 - now);
      expect(s.config.market.enforceHours).toBe(false);
      const balance = await balanceOf(s, u.id);
      const postings = (await ledgerOf(s, u.id)).length;
      const sale = await s.call('dealSell', {
        token: u.token,
        body: { no: bought.body.data.no },
        headers: idem(),
      });
      expect(sale.body).toEqual({ msg: 'no', data: 'errors.noAvailableTime' });
      const again = await s.call('dealBuy', { token: u.token, body: relianceBulk(u.code), headers: idem() });
      expect(again.body).toEqual({ msg: 'no', data: 'errors.noAvailableTime' });
      expect(await balanceOf(s, u.id)).toBe(balance);
      expect(await ledgerOf(s, u.id)).toHaveLength(postings);
      // The sale sheet's figures say so before anything is sent: closed, and when it opens.
      const quote = await s.call('orderQuote', {
        token: u.token,
        query: { tag: 'RELIANCE.NS', side: 'sell', count: 100 },
      });
      const next = nextSession('NSE', s.clock.now()).open;
      expect(quote.body.data.session).toMatchObject({ open: false, opens_at: next });
      const value = 100 * 250_000;
      expect(quote.body.data).toMatchObject({
        value: fromMinor(value),
        net: fromMinor(value - saleCharges('RELIANCE.NS', value)),
      });
      // From the open it sells, once.
      toSession(s, 'RELIANCE.NS');
      const sold = await s.call('dealSell', {
        token: u.token,
        body: { no: bought.body.data.no },
        headers: idem(),
      });
      expect(sold.body).toMatchObject({
        msg: 'ok',
        data: { state: 'sell', price_all: fromMinor(value - saleCharges('RELIANCE.NS', value)) },
      });
    });

    it('a stock order cannot be sold by number', async () => {
      const u = await buyer();
      const stock = await s.call('dealBuy', {
        token: u.token,
        body: { tag: 'AAPL', count: 1, price: 200, mold: 'stock' },
        headers: idem(),
      });
      const res = await s.call('dealSell', {
        token: u.token,
        body: { no: stock.body.data.no },
        headers: idem(),
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.notSellable' });
    });

    it('counts an unsold block holding at market value in total assets', async () => {
      const u = await buyer();
      await blockBuy(u.token, relianceBulk(u.code));
      const info = await s.call('userInfo', { token: u.token });
      // cash 1,000,000 − 241,546.76 paid (241,237.00 and charges 309.76); holding worth 250,000.00 at the quote
      expect(info.body.data.money).toBe('758453.24');
      expect(info.body.data.total).toBe('1008453.24');
    });

    it('rejects a malformed sell body', async () => {
      const u = await buyer(0);
      for (const body of [{}, { no: '' }, { no: 'X', count: 1 }, { tag: 'AAPL', count: 1, price: 1 }]) {
        const res = await s.call('dealSell', { token: u.token, body, headers: idem() });
        expect(res.body, JSON.stringify(body)).toEqual({ msg: 'no', data: 'errors.invalidInput' });
      }
    });
  });
});
