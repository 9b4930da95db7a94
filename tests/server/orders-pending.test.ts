import { beforeAll, describe, expect, it } from 'vitest';
import { runJob } from '../../server/jobs/index';
import { matchJob, ordersServer, RICH } from '../support/orders';
import { DIALECTS, type TestServer } from '../support/server';
import { balanceOf, idem, ledgerOf, type MarketControl, toSession } from '../support/trading';

/**
 * Stock orders that rest: a limit the quote moved away from, filled by the match job, cancelled or
 * expired with exact releases; and simultaneous buys, sells and cancels. Setup: support/orders.ts.
 */
describe.each(DIALECTS)('pending stock orders on $name', ({ name, enabled }) => {
  const t = ordersServer(name, enabled);
  const { trader, buy, sell, holdings } = t;
  let s: TestServer;
  let m: MarketControl;
  beforeAll(() => {
    ({ s, m } = t);
  });

  describe.skipIf(!enabled)('pending orders', () => {
    it('a buy the quote moved beyond tolerance against rests at the user’s price and fills later at the quote', async () => {
      const u = await trader();
      const res = await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2400 });
      expect(res.body.data).toMatchObject({
        status: 0,
        price: 2400,
        limit_price: 2400,
        price_all: '24000.00',
        expires_at: expect.any(Number),
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_400_000);
      expect((await holdings(u.token, 'stock')).count).toBe(0);

      await runJob(s.deps, matchJob);
      const still = await s.call('orderList', { token: u.token, query: { status: 0 } });
      expect(still.body.data.rows.map((r: { no: string }) => r.no)).toEqual([res.body.data.no]);

      m.pin('RELIANCE.NS', 2390);
      try {
        await runJob(s.deps, matchJob);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
      const filled = await s.call('orderList', { token: u.token, query: { status: 1 } });
      expect(filled.body.data.rows[0]).toMatchObject({
        no: res.body.data.no,
        price: 2390,
        price_all: '23900.00',
      });
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_390_000);
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: 10_000, reason: 'orderRefund' });
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ count: 10, cost: '23900.00' });
    });

    it('a pending buy cancelled by its owner refunds exactly what it reserved', async () => {
      const u = await trader();
      const placed = await buy(u.token, { tag: 'AAPL', count: 7, price: 190.1234 });
      expect(placed.body.data).toMatchObject({ status: 0, price_all: '26617.28' });
      expect(await balanceOf(s, u.id)).toBe(RICH - 2_661_728);

      const other = await trader(0);
      const stranger = await s.call('orderCancel', {
        token: other.token,
        body: { no: placed.body.data.no },
        headers: idem(),
      });
      expect(stranger.status).toBe(404);
      expect(stranger.body).toEqual({ msg: 'no', data: 'errors.notFound' });

      const res = await s.call('orderCancel', {
        token: u.token,
        body: { no: placed.body.data.no },
        headers: idem(),
      });
      expect(res.body.data).toMatchObject({ status: 2, no: placed.body.data.no });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      expect((await ledgerOf(s, u.id)).at(-1)).toMatchObject({ amount: 2_661_728, reason: 'orderRefund' });

      const twice = await s.call('orderCancel', {
        token: u.token,
        body: { no: placed.body.data.no },
        headers: idem(),
      });
      expect(twice.body).toEqual({ msg: 'no', data: 'errors.notPending' });
      expect(await balanceOf(s, u.id)).toBe(RICH);
      const tab = await s.call('orderList', { token: u.token, query: { status: 2 } });
      expect(tab.body.data.rows.map((r: { no: string }) => r.no)).toEqual([placed.body.data.no]);
    });

    it('a filled order cannot be cancelled', async () => {
      toSession(s, 'AAPL');
      const u = await trader();
      const placed = await buy(u.token, { tag: 'AAPL', count: 1, price: 200 });
      const res = await s.call('orderCancel', {
        token: u.token,
        body: { no: placed.body.data.no },
        headers: idem(),
      });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.notPending' });
    });

    it('a pending buy expires at the close of its session with an exact refund', async () => {
      const u = await trader();
      const placed = await buy(u.token, { tag: 'RELIANCE.NS', count: 3, price: 2300 });
      expect(placed.body.data.status).toBe(0);
      s.clock.advance(placed.body.data.expires_at - s.clock.now() + 1);
      await runJob(s.deps, matchJob);
      const tab = await s.call('orderList', { token: u.token, query: { status: 3 } });
      expect(tab.body.data.rows).toMatchObject([{ no: placed.body.data.no, status: 3 }]);
      expect(await balanceOf(s, u.id)).toBe(RICH);
      // A quote that reaches the limit after expiry fills nothing.
      m.pin('RELIANCE.NS', 2000);
      try {
        await runJob(s.deps, matchJob);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
      expect(await balanceOf(s, u.id)).toBe(RICH);
      expect((await holdings(u.token, 'stock')).count).toBe(0);
    });

    it('a pending sell reserves its shares, fills at the quote once reached, and expiry releases them', async () => {
      toSession(s, 'RELIANCE.NS');
      const u = await trader();
      await buy(u.token, { tag: 'RELIANCE.NS', count: 10, price: 2500 });
      const placed = await sell(u.token, { tag: 'RELIANCE.NS', count: 5, price: 2700 });
      expect(placed.body.data).toMatchObject({
        status: 0,
        state: 'sell',
        limit_price: 2700,
        sell_price: null,
      });
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ count: 10, available: 5 });
      const over = await sell(u.token, { tag: 'RELIANCE.NS', count: 6, price: 2500 });
      expect(over.body).toEqual({ msg: 'no', data: 'errors.insufficientShares' });

      const before = await balanceOf(s, u.id);
      m.pin('RELIANCE.NS', 2710);
      try {
        await runJob(s.deps, matchJob);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
      const done = await s.call('orderList', { token: u.token, query: { status: 1, tag: 'RELIANCE.NS' } });
      expect(done.body.data.rows[0]).toMatchObject({
        no: placed.body.data.no,
        sell_price: 2710,
        price: 2500,
        price_all: '13550.00',
        profit: '1050.00',
      });
      expect(await balanceOf(s, u.id)).toBe(before + 1_355_000);
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({
        count: 5,
        available: 5,
        cost: '12500.00',
      });

      const resting = await sell(u.token, { tag: 'RELIANCE.NS', count: 5, price: 2900 });
      expect(resting.body.data.status).toBe(0);
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ available: 0 });
      s.clock.advance(resting.body.data.expires_at - s.clock.now() + 1);
      await runJob(s.deps, matchJob);
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ count: 5, available: 5 });
    });

    it('a pending sell cancelled by its owner frees the shares', async () => {
      toSession(s, 'AAPL');
      const u = await trader();
      await buy(u.token, { tag: 'AAPL', count: 4, price: 200 });
      const placed = await sell(u.token, { tag: 'AAPL', count: 4, price: 260 });
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ available: 0 });
      const res = await s.call('orderCancel', {
        token: u.token,
        body: { no: placed.body.data.no },
        headers: idem(),
      });
      expect(res.body.data.status).toBe(2);
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ count: 4, available: 4 });
    });

    it('cancelling an unknown order number answers notFound', async () => {
      const u = await trader(0);
      const res = await s.call('orderCancel', { token: u.token, body: { no: 'S-NOPE' }, headers: idem() });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.notFound' });
    });
  });

  describe.skipIf(!enabled)('concurrency', () => {
    it('50 simultaneous buys never spend more than the balance', async () => {
      toSession(s, 'RELIANCE.NS');
      const u = await trader(10 * 250_000 + 1); // ten buys of one RELIANCE at 2,500.00
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => buy(u.token, { tag: 'RELIANCE.NS', count: 1, price: 2500 })),
      );
      expect(answers.filter((a) => a.body.msg === 'ok')).toHaveLength(10);
      expect(answers.filter((a) => a.body.data === 'errors.insufficientFunds')).toHaveLength(40);
      expect(await balanceOf(s, u.id)).toBe(1);
      expect((await holdings(u.token, 'stock')).rows[0]).toMatchObject({ count: 10 });
    });

    it('simultaneous sells never sell more than is held', async () => {
      toSession(s, 'AAPL');
      const u = await trader();
      await buy(u.token, { tag: 'AAPL', count: 5, price: 200 });
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => sell(u.token, { tag: 'AAPL', count: 1, price: 200 })),
      );
      expect(answers.filter((a) => a.body.msg === 'ok')).toHaveLength(5);
      expect(await balanceOf(s, u.id)).toBe(RICH);
      expect((await holdings(u.token, 'stock')).count).toBe(0);
    });

    it('a cancel racing the match job ends in exactly one outcome with the money right', async () => {
      const u = await trader();
      const placed = await buy(u.token, { tag: 'RELIANCE.NS', count: 2, price: 2400 });
      expect(placed.body.data.status).toBe(0);
      m.pin('RELIANCE.NS', 2390);
      try {
        await Promise.all([
          runJob(s.deps, matchJob),
          s.call('orderCancel', { token: u.token, body: { no: placed.body.data.no }, headers: idem() }),
        ]);
      } finally {
        m.pin('RELIANCE.NS', 2500);
      }
      const [row] = (await s.call('orderList', { token: u.token })).body.data.rows;
      expect([1, 2]).toContain(row.status);
      expect(await balanceOf(s, u.id)).toBe(row.status === 1 ? RICH - 478_000 : RICH);
      expect((await holdings(u.token, 'stock')).count).toBe(row.status === 1 ? 1 : 0);
    });
  });
});
