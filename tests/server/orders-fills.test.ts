import { beforeAll, describe, expect, it } from 'vitest';
import { ordersServer, RICH } from '../support/orders';
import { DIALECTS, type TestServer } from '../support/server';
import { balanceOf, idem, ledgerOf, type MarketControl, toSession } from '../support/trading';

/**
 * Stock orders that fill at once: at the server's quote, converted, valued and sold; refused input;
 * Idempotency-Key replays; the order records and total assets. Setup: support/orders.ts.
 */
describe.each(DIALECTS)('stock orders that fill on $name', ({ name, enabled }) => {
  const t = ordersServer(name, enabled);
  const { trader, buy, sell, holdings, orderCount } = t;
  let s: TestServer;
  let m: MarketControl;
  beforeAll(() => {
    ({ s, m } = t);
  });

  describe.skipIf(!enabled)('immediate fills', () => {
    it("fills a buy at the server's quote, not at the price the client sent", async () => {
      const u = await trader();
      const res = await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2510 });
      expect(res.body.msg).toBe('ok');
      expect(res.body.data).toMatchObject({
        state: 'buy',
        mold: 'stock',
        status: 1,
        count: 10,
        price: 2500,
        price_all: '25000.00',
        fee: '0.00',
        limit_price: 2510,
        tag: 'RELIANCE.NS',
        type: 'IN',
        sellable: false,
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_500_000);
      const ledger = await ledgerOf(s, u.id);
      expect(ledger.at(-1)).toMatchObject({ amount: -2_500_000, reason: 'buyStock', ref_type: 'order' });
    });

    it('fills at the lower quote when the market moved in the buyer’s favour', async () => {
      const u = await trader();
      const res = await buy(u.token, { tag: 'RELIANCE.NS', count: 2, price: 3000 });
      expect(res.body.data).toMatchObject({ status: 1, price: 2500, price_all: '5000.00' });
      expect(await balanceOf(s, u.id)).toBe(RICH - 500_000);
    });

    it('converts USD instruments at the USD rate and posts the reason of each kind', async () => {
      const u = await trader();
      const cases: Array<[string, number, number, string, string]> = [
        ['AAPL', 5, 200, '20000.00', 'buyStock'],
        ['EURUSD=X', 10, 1.1, '220.00', 'buyForex'],
        ['GCT=F', 1, 2000, '40000.00', 'buyFutures'],
        ['IN10YT', 10, 98.5, '985.00', 'buyTreasury'],
      ];
      for (const [tag, count, price, total, reason] of cases) {
        // Each in a session of its market (NSE and the US never trade at once).
        toSession(s, tag);
        const res = await buy(u.token, { tag, count, price });
        expect(res.body.data, tag).toMatchObject({ status: 1, price, price_all: total });
        expect((await ledgerOf(s, u.id)).at(-1)?.reason).toBe(reason);
      }
      expect(await balanceOf(s, u.id)).toBe(RICH - (2_000_000 + 22_000 + 4_000_000 + 98_500));
    });

    it('lists holdings by type, valued at the current quote with unrealised profit/loss', async () => {
      const u = await trader();
      // Each in a session of its market: NSE's (the test starts in one), then the US's.
      await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2500 });
      await buy(u.token, { tag: 'IN10YT', count: 4, price: 98.5 });
      toSession(s, 'AAPL');
      await buy(u.token, { tag: 'AAPL', count: 3, price: 200 });
      await buy(u.token, { tag: 'EURUSD=X', count: 100, price: 1.1 });
      await buy(u.token, { tag: 'GCT=F', count: 1, price: 2000 });
      m.pin('RELIANCE.NS', 2600);
      try {
        const stock = await holdings(u.token, 'stock');
        expect(stock.count).toBe(2);
        const rel = stock.rows.find((r: { stock: string }) => r.stock === 'RELIANCE.NS');
        expect(rel).toMatchObject({
          count: 10,
          available: 10,
          avg_price: 2500,
          cost: '25000.00',
          prasent: 2600,
          value: '26000.00',
          profit: '1000.00',
          region: 'IN',
        });
        expect(rel.profit_percent).toBeCloseTo(4, 10);
        const aapl = stock.rows.find((r: { stock: string }) => r.stock === 'AAPL');
        expect(aapl).toMatchObject({
          count: 3,
          avg_price: 200,
          cost: '12000.00',
          value: '12000.00',
          region: 'US',
        });
        expect((await holdings(u.token, 'forex')).rows.map((r: { stock: string }) => r.stock)).toEqual([
          'EURUSD=X',
        ]);
        expect((await holdings(u.token, 'futures')).rows).toMatchObject([
          { stock: 'GCT=F', cost: '40000.00' },
        ]);
        expect((await holdings(u.token, 'treasury')).rows).toMatchObject([
          { stock: 'IN10YT', cost: '394.00' },
        ]);
        const paged = await s.call('holdings', {
          token: u.token,
          query: { type: 'stock', page: 2, limit: 1 },
        });
        expect(paged.body.data.count).toBe(2);
        expect(paged.body.data.rows).toHaveLength(1);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
    });

    it('sells at the quote with realised profit against the average cost, and keeps the rest', async () => {
      const u = await trader();
      await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2500 });
      m.pin('RELIANCE.NS', 2400);
      await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2400 });
      m.pin('RELIANCE.NS', 2600);
      try {
        const before = await balanceOf(s, u.id);
        const res = await sell(u.token, { tag: 'RELIANCE.NS', count: 4, price: 2600 });
        expect(res.body.data).toMatchObject({
          state: 'sell',
          status: 1,
          count: 4,
          price: 2450,
          sell_price: 2600,
          price_all: '10400.00',
          profit: '600.00',
        });
        expect(await balanceOf(s, u.id)).toBe(before + 1_040_000);
        expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: 1_040_000, reason: 'sellStock' });
        const [rel] = (await holdings(u.token, 'stock')).rows;
        expect(rel).toMatchObject({ count: 16, cost: '39200.00', avg_price: 2450 });
        const rest = await sell(u.token, { tag: 'RELIANCE.NS', count: 16, price: 2600 });
        expect(rest.body.data).toMatchObject({ price_all: '41600.00', profit: '2400.00' });
        expect((await holdings(u.token, 'stock')).count).toBe(0);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
    });

    it('refuses to sell more than is held, or what is not held, and changes nothing', async () => {
      const u = await trader();
      await buy(u.token, { tag: 'RELIANCE.NS', count: 5, price: 2500 });
      const before = await balanceOf(s, u.id);
      for (const [tag, count] of [
        ['RELIANCE.NS', 6],
        ['AAPL', 1],
      ] as const) {
        const res = await sell(u.token, { tag, count, price: 2500 });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ msg: 'no', data: 'errors.insufficientShares' });
      }
      expect(await balanceOf(s, u.id)).toBe(before);
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ count: 5 });
    });
  });

  describe.skipIf(!enabled)('validation', () => {
    it.each([
      ['quantity 0', { tag: 'RELIANCE.NS', count: 0, price: 2500 }, 400, 'errors.invalidInput'],
      ['quantity 101', { tag: 'RELIANCE.NS', count: 101, price: 2500 }, 400, 'errors.quantityRange'],
      ['a fractional quantity', { tag: 'RELIANCE.NS', count: 1.5, price: 2500 }, 400, 'errors.invalidInput'],
      ['a quantity as text', { tag: 'RELIANCE.NS', count: '5', price: 2500 }, 400, 'errors.invalidInput'],
      ['a zero price', { tag: 'RELIANCE.NS', count: 1, price: 0 }, 400, 'errors.invalidInput'],
      ['a negative price', { tag: 'RELIANCE.NS', count: 1, price: -5 }, 400, 'errors.invalidInput'],
      [
        'an unknown field',
        { tag: 'RELIANCE.NS', count: 1, price: 2500, fill_price: 1 },
        400,
        'errors.invalidInput',
      ],
      ['a bad symbol', { tag: 'DROP TABLE', count: 1, price: 2500 }, 400, 'errors.invalidInput'],
      ['an unknown symbol', { tag: 'NOPE.NS', count: 1, price: 2500 }, 404, 'errors.notFound'],
      ['an index', { tag: '^NSEI', count: 1, price: 24000 }, 400, 'errors.notTradable'],
      [
        'an unknown mold',
        { tag: 'RELIANCE.NS', count: 1, price: 2500, mold: 'ipo' },
        400,
        'errors.invalidInput',
      ],
    ])('rejects a buy with %s and writes nothing', async (_label, body, status, key) => {
      const u = await trader();
      const res = await buy(u.token, body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ msg: 'no', data: key });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      expect(await orderCount(u.id)).toBe(0);
    });

    it('accepts the full-position maximum of 100', async () => {
      const u = await trader();
      const res = await buy(u.token, { tag: 'EURUSD=X', count: 100, price: 1.1 });
      expect(res.body.data).toMatchObject({ status: 1, count: 100 });
    });

    it('rejects a sell of quantity 101 with quantityRange', async () => {
      const u = await trader();
      const res = await sell(u.token, { tag: 'RELIANCE.NS', count: 101, price: 2500 });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.quantityRange' });
    });

    it('a buy the balance cannot cover is refused and changes nothing', async () => {
      const u = await trader(10_000);
      const res = await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2500 });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.insufficientFunds' });
      expect(await balanceOf(s, u.id)).toBe(10_000);
      expect(await orderCount(u.id)).toBe(0);
      expect((await holdings(u.token, 'stock')).count).toBe(0);
      expect(await ledgerOf(s, u.id)).toHaveLength(1);
    });

    it('a visitor gets the logout answer', async () => {
      const trade = { tag: 'AAPL', count: 1, price: 1, mold: 'stock' };
      for (const [name, input] of [
        ['dealBuy', { body: trade }],
        ['dealSell', { body: trade }],
        ['orderCancel', { body: { no: 'S1' } }],
        ['orderList', {}],
        ['holdings', { query: { type: 'stock' } }],
      ] as const) {
        const res = await s.call(name, { ...input, headers: idem() });
        expect(res.status, name).toBe(401);
        expect(res.body.msg).toBe('logout');
      }
    });

    it('rejects an unknown holdings type', async () => {
      const u = await trader(0);
      const res = await s.call('holdings', { token: u.token, query: { type: 'crypto' } });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });
  });

  describe.skipIf(!enabled)('idempotency', () => {
    it('replays the first answer for the same key and moves money once', async () => {
      const u = await trader();
      const headers = idem();
      const body = { tag: 'RELIANCE.NS', count: 3, price: 2500 };
      const first = await buy(u.token, body, headers);
      const again = await buy(u.token, body, headers);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(await balanceOf(s, u.id)).toBe(RICH - 750_000);
      expect(await orderCount(u.id)).toBe(1);
    });

    it('rejects the same key with another body and moves nothing', async () => {
      const u = await trader();
      const headers = idem();
      await buy(u.token, { tag: 'RELIANCE.NS', count: 3, price: 2500 }, headers);
      const other = await buy(u.token, { tag: 'RELIANCE.NS', count: 4, price: 2500 }, headers);
      expect(other.status).toBe(422);
      expect(other.body).toEqual({ msg: 'no', data: 'errors.idempotencyMismatch' });
      expect(await balanceOf(s, u.id)).toBe(RICH - 750_000);
    });

    it('the same key sent 10 times at once fills once', async () => {
      toSession(s, 'AAPL');
      const u = await trader();
      const headers = idem();
      const body = { tag: 'AAPL', count: 2, price: 200 };
      const answers = await Promise.all(Array.from({ length: 10 }, () => buy(u.token, body, headers)));
      const nos = new Set(answers.map((a) => a.body.data?.no));
      expect(answers.every((a) => a.body.msg === 'ok')).toBe(true);
      expect(nos.size).toBe(1);
      expect(await balanceOf(s, u.id)).toBe(RICH - 800_000);
      expect(await orderCount(u.id)).toBe(1);
    });

    it('a sell replays without selling twice', async () => {
      const u = await trader();
      await buy(u.token, { tag: 'RELIANCE.NS', count: 2, price: 2500 });
      const headers = idem();
      const body = { tag: 'RELIANCE.NS', count: 2, price: 2500 };
      const first = await sell(u.token, body, headers);
      const again = await sell(u.token, body, headers);
      expect(first.body.data.status).toBe(1);
      expect(again.body).toEqual(first.body);
      expect(await balanceOf(s, u.id)).toBe(RICH);
    });
  });

  describe.skipIf(!enabled)('order records', () => {
    it('lists stock records newest first, paged, by status and tag, only the caller’s', async () => {
      toSession(s, 'AAPL');
      const u = await trader();
      const nos: string[] = [];
      for (let i = 0; i < 12; i++) {
        const tag = i % 3 === 0 ? 'AAPL' : 'EURUSD=X';
        const r = await buy(u.token, { tag, count: 1, price: tag === 'AAPL' ? 200 : 1.1 });
        nos.push(r.body.data.no);
      }
      const pending = await buy(u.token, { tag: 'AAPL', count: 1, price: 150 });
      const first = await s.call('orderList', { token: u.token });
      expect(first.body.data.count).toBe(13);
      expect(first.body.data.rows).toHaveLength(10);
      expect(first.body.data.rows[0].no).toBe(pending.body.data.no);
      expect(first.body.data.rows[1].no).toBe(nos[11]);
      const second = await s.call('orderList', { token: u.token, query: { page: 2 } });
      expect(second.body.data.rows.map((r: { no: string }) => r.no)).toEqual([nos[2], nos[1], nos[0]]);
      const aapl = await s.call('orderList', { token: u.token, query: { tag: 'AAPL', status: 1 } });
      expect(aapl.body.data.count).toBe(4);
      const pend = await s.call('orderList', { token: u.token, query: { status: 0 } });
      expect(pend.body.data.rows.map((r: { no: string }) => r.no)).toEqual([pending.body.data.no]);

      const other = await trader(0);
      const theirs = await s.call('orderList', { token: other.token });
      expect(theirs.body.data).toEqual({ rows: [], count: 0 });
      expect(await holdings(other.token, 'stock')).toEqual({ rows: [], count: 0 });
      expect(await holdings(other.token, 'forex')).toEqual({ rows: [], count: 0 });
      const sellTheirs = await sell(other.token, { tag: 'AAPL', count: 1, price: 200 });
      expect(sellTheirs.body).toEqual({ msg: 'no', data: 'errors.insufficientShares' });
    });

    it.each([
      ['status 9', { status: 9 }],
      ['page 0', { page: 0 }],
      ['limit 1000', { limit: 1000 }],
      ['mold x', { mold: 'x' }],
    ])('rejects %s', async (_label, query) => {
      const u = await trader(0);
      const res = await s.call('orderList', { token: u.token, query });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });
  });

  describe.skipIf(!enabled)('total assets', () => {
    it('counts positions at market value and cash reserved by pending buys', async () => {
      const u = await trader();
      await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2500 });
      await buy(u.token, { tag: 'AAPL', count: 3, price: 150 }); // pending: 9,000.00 reserved
      m.pin('RELIANCE.NS', 2550);
      try {
        const info = await s.call('userInfo', { token: u.token });
        expect(info.body.data.money).toBe('966000.00');
        expect(info.body.data.total).toBe('1000500.00');
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
    });
  });
});
