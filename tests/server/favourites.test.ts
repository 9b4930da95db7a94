import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { controlMarket } from '../support/trading';

describe.each(DIALECTS)('favourites on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    const m = controlMarket(s);
    m.pin('RELIANCE.NS', 2500);
    m.pin('TCS.NS', 4000);
    m.pin('INFY.BO', 1800);
    m.pin('AAPL', 200);
  });
  afterAll(async () => {
    await s?.close();
  });

  const add = (token: string, symbol: string) => s.call('favouriteAdd', { token, body: { symbol } });
  const check = async (token: string, symbol: string) =>
    (await s.call('favouriteCheck', { token, query: { symbol } })).body.data.collected;

  describe.skipIf(!enabled)('toggle', () => {
    it('adds, checks and removes a favourite; repeating either is harmless', async () => {
      const u = await s.signUp();
      expect(await check(u.token, 'AAPL')).toBe(false);
      expect((await add(u.token, 'AAPL')).body).toEqual({ msg: 'ok', data: null });
      expect((await add(u.token, 'AAPL')).body.msg).toBe('ok');
      expect(await check(u.token, 'AAPL')).toBe(true);
      const removed = await s.call('favouriteRemove', { token: u.token, body: { symbol: 'AAPL' } });
      expect(removed.body).toEqual({ msg: 'ok', data: null });
      const again = await s.call('favouriteRemove', { token: u.token, body: { symbol: 'AAPL' } });
      expect(again.body.msg).toBe('ok');
      expect(await check(u.token, 'AAPL')).toBe(false);
    });

    it('refuses a symbol the market does not know', async () => {
      const u = await s.signUp();
      const res = await add(u.token, 'NOPE.NS');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: 'no', data: 'errors.notFound' });
    });

    it.each([
      ['a missing symbol', {}],
      ['an unknown field', { symbol: 'AAPL', user_id: 1 }],
      ['a symbol with spaces', { symbol: 'A A' }],
      ['a number', { symbol: 5 }],
    ])('rejects %s', async (_label, body) => {
      const u = await s.signUp();
      const res = await s.call('favouriteAdd', { token: u.token, body });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });

    it('deletes by display code, with or without the exchange suffix', async () => {
      const u = await s.signUp();
      await add(u.token, 'RELIANCE.NS');
      await add(u.token, 'INFY.BO');
      await add(u.token, 'AAPL');
      await s.call('favouriteDelete', { token: u.token, body: { code: 'RELIANCE' } });
      await s.call('favouriteDelete', { token: u.token, body: { code: 'INFY.BO' } });
      expect(await check(u.token, 'RELIANCE.NS')).toBe(false);
      expect(await check(u.token, 'INFY.BO')).toBe(false);
      expect(await check(u.token, 'AAPL')).toBe(true);
    });

    it('a visitor gets the logout answer', async () => {
      const res = await add('', 'AAPL');
      expect(res.status).toBe(401);
      expect(res.body.msg).toBe('logout');
    });
  });

  describe.skipIf(!enabled)('list', () => {
    it('pages the caller’s favourites newest first with live prices and a total', async () => {
      const u = await s.signUp();
      for (const symbol of ['RELIANCE.NS', 'TCS.NS', 'INFY.NS', 'AAPL']) {
        await add(u.token, symbol);
        s.clock.advance(1000);
      }
      const other = await s.signUp();
      await add(other.token, 'RELIANCE.NS');

      const page1 = await s.call('favouriteList', { token: u.token, query: { page: 1, pageSize: 3 } });
      expect(page1.body.data.total).toBe(4);
      expect(page1.body.data.list.map((i: { stock_code: string }) => i.stock_code)).toEqual([
        'AAPL',
        'INFY.NS',
        'TCS.NS',
      ]);
      expect(page1.body.data.list[0]).toMatchObject({
        stock_name: 'Apple Inc.',
        stock_code: 'AAPL',
        stock_detail: { market: 'US', prasent: 200, exchange_name: 'NASDAQ', decimals: 2 },
      });
      expect(page1.body.data.list[0].stock_detail.as_of).toBeGreaterThan(0);
      const page2 = await s.call('favouriteList', { token: u.token, query: { page: 2, pageSize: 3 } });
      expect(page2.body.data.list.map((i: { stock_code: string }) => i.stock_code)).toEqual(['RELIANCE.NS']);
      const theirs = await s.call('favouriteList', { token: other.token });
      expect(theirs.body.data.total).toBe(1);
    });

    it('rejects a page size over 100', async () => {
      const u = await s.signUp();
      const res = await s.call('favouriteList', { token: u.token, query: { pageSize: 101 } });
      expect(res.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    });
  });
});
