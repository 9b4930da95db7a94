import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EndpointName } from '#shared/contract/index';
import { ALERTS_MAX, WATCHLIST_MAX_ITEMS, WATCHLIST_MAX_LISTS } from '#shared/rules';
import { startJobs } from '../../server/jobs/index';
import { isMarketOpen, nextSession } from '../../server/market/hours';
import { evaluateAlerts } from '../../server/watchlists/alerts';
import { watchlistJobs } from '../../server/watchlists/jobs';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { controlMarket, setTradePassword } from '../support/trading';
import { enrolTotp } from '../support/two-factor';
import { addCard, fund, upload } from '../support/wallet';

/**
 * Watchlists, price alerts and onboarding on both dialects: the default list is SPEC's
 * favourites, limits and bad input are refused with their keys, rows are the owner's (the matrix in
 * ownership.test.ts covers another user), and an alert fires exactly once when a tick crosses it.
 */
describe.each(DIALECTS)('watchlists and alerts on $name', ({ name, enabled }) => {
  let s: TestServer;
  let user: { token: string; id: number };
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    user = await s.signUp();
  });
  afterAll(async () => {
    await s?.close();
  });
  const get = (name: EndpointName, query: Record<string, string | number> = {}, token = user.token) =>
    s.call(name, { token, query });
  const post = (name: EndpointName, body: unknown, token = user.token) => s.call(name, { token, body });
  const listsOf = async (token = user.token) =>
    (await get('watchlistLists', {}, token)).body.data.rows as Array<{
      id: number;
      name: string | null;
      is_default: boolean;
      count: number;
    }>;

  describe.skipIf(!enabled)('lists', () => {
    it('starts with the default list, which is SPEC’s favourites both ways', async () => {
      const [first, ...others] = await listsOf();
      expect(first).toMatchObject({ name: null, is_default: true, count: 0, position: 0 });
      expect(others).toEqual([]);
      expect((await post('favouriteAdd', { symbol: 'aapl' })).body.msg).toBe('ok');
      const items = await get('watchlistItems', { id: first!.id });
      expect(items.body.data.list.map((i: { stock_code: string }) => i.stock_code)).toEqual(['AAPL']);
      expect((await post('watchlistAdd', { id: first!.id, symbol: 'TCS.NS' })).body.msg).toBe('ok');
      const favs = await get('favouriteList');
      expect(favs.body.data.total).toBe(2);
      expect((await get('favouriteCheck', { symbol: 'TCS.NS' })).body.data.collected).toBe(true);
      expect((await post('favouriteDelete', { code: 'TCS' })).body.msg).toBe('ok');
      expect((await get('watchlistMembership', { symbol: 'TCS.NS' })).body.data.ids).toEqual([]);
      expect((await get('watchlistMembership', { symbol: 'AAPL' })).body.data.ids).toEqual([first!.id]);
    });

    it('creates, renames, reorders and deletes named lists', async () => {
      const a = await post('watchlistCreate', { name: '  Tech   picks ' });
      expect(a.body.data).toMatchObject({ name: 'Tech picks', is_default: false, count: 0 });
      const b = await post('watchlistCreate', { name: 'Banks' });
      const def = (await listsOf())[0]!;
      expect((await post('watchlistAdd', { id: b.body.data.id, symbol: 'HDFCBANK.NS' })).body.msg).toBe('ok');
      // Adding twice is ok (an outbox may replay), and counts once.
      expect((await post('watchlistAdd', { id: b.body.data.id, symbol: 'HDFCBANK.NS' })).body.msg).toBe('ok');
      const renamed = await post('watchlistRename', { id: a.body.data.id, name: 'Chips' });
      expect(renamed.body.data.name).toBe('Chips');
      const order = [b.body.data.id, def.id, a.body.data.id];
      const reordered = await post('watchlistReorder', { ids: order });
      expect(reordered.body.data.rows.map((l: { id: number }) => l.id)).toEqual(order);
      expect((await listsOf()).map((l) => [l.name, l.count])).toEqual([
        ['Banks', 1],
        [null, 1],
        ['Chips', 0],
      ]);
      expect((await post('watchlistDelete', { id: b.body.data.id })).body.msg).toBe('ok');
      expect((await listsOf()).map((l) => l.name)).toEqual([null, 'Chips']);
      const gone = await get('watchlistItems', { id: b.body.data.id });
      expect(gone.status).toBe(404);
      const left = await s.deps.database.db
        .selectFrom('watchlist_items')
        .select('symbol')
        .where('list_id', '=', b.body.data.id)
        .execute();
      expect(left).toEqual([]);
    });

    it('refuses bad names, the default list’s rename or delete, an incomplete order and unknown symbols', async () => {
      const cases: Array<[EndpointName, unknown, number, string]> = [
        ['watchlistCreate', { name: '   ' }, 400, 'errors.watchlistName'],
        ['watchlistCreate', { name: 'chips' }, 409, 'errors.watchlistNameTaken'],
        ['watchlistCreate', { name: 'x'.repeat(41) }, 400, 'errors.invalidInput'],
        ['watchlistCreate', { name: 'A', extra: 1 }, 400, 'errors.invalidInput'],
        ['watchlistReorder', { ids: [1, 1] }, 400, 'errors.invalidInput'],
        ['watchlistAdd', { id: 1, symbol: 'NOPE..' }, 404, 'errors.notFound'],
      ];
      const [def, chips] = await listsOf();
      cases.push(
        ['watchlistRename', { id: def!.id, name: 'Mine' }, 400, 'errors.watchlistDefault'],
        ['watchlistDelete', { id: def!.id }, 400, 'errors.watchlistDefault'],
        ['watchlistReorder', { ids: [chips!.id] }, 400, 'errors.watchlistOrder'],
        ['watchlistAdd', { id: chips!.id, symbol: 'NOPE' }, 404, 'errors.notFound'],
      );
      for (const [name, body, status, key] of cases) {
        const res = await post(name, body);
        expect([res.status, res.body], `${name} ${JSON.stringify(body)}`).toEqual([
          status,
          { msg: 'no', data: key },
        ]);
      }
    });

    it(`holds at most ${WATCHLIST_MAX_LISTS} lists of ${WATCHLIST_MAX_ITEMS}`, async () => {
      const other = await s.signUp();
      for (let i = 1; i < WATCHLIST_MAX_LISTS; i++) {
        expect((await post('watchlistCreate', { name: `L${i}` }, other.token)).body.msg).toBe('ok');
      }
      const over = await post('watchlistCreate', { name: 'One more' }, other.token);
      expect([over.status, over.body.data]).toEqual([409, 'errors.watchlistLimit']);
      const list = (await listsOf(other.token))[1]!.id;
      const symbols = s.deps.market
        .instruments()
        .filter((i) => i.kind === 'stock')
        .map((i) => i.symbol);
      expect(symbols.length).toBeGreaterThan(WATCHLIST_MAX_ITEMS);
      for (const symbol of symbols.slice(0, WATCHLIST_MAX_ITEMS)) {
        expect((await post('watchlistAdd', { id: list, symbol }, other.token)).body.msg).toBe('ok');
      }
      const full = await post(
        'watchlistAdd',
        { id: list, symbol: symbols[WATCHLIST_MAX_ITEMS] },
        other.token,
      );
      expect([full.status, full.body.data]).toEqual([409, 'errors.watchlistFull']);
      // What is already there may be added again (a replayed outbox) even when full.
      const again = await post('watchlistAdd', { id: list, symbol: symbols[0] }, other.token);
      expect(again.body.msg).toBe('ok');
      const items = await get('watchlistItems', { id: list, limit: 100 }, other.token);
      expect(items.body.data.total).toBe(WATCHLIST_MAX_ITEMS);
    });
  });

  describe.skipIf(!enabled)('alerts', () => {
    it('refuses levels already past, moves out of range, too many decimals and unknown symbols', async () => {
      const market = controlMarket(s);
      market.pin('INFY.NS', 1500);
      const cases: Array<[unknown, number, string]> = [
        [{ symbol: 'INFY.NS', kind: 'above', value: 1499 }, 400, 'errors.alertPast'],
        [{ symbol: 'INFY.NS', kind: 'below', value: 1500 }, 400, 'errors.alertPast'],
        [{ symbol: 'INFY.NS', kind: 'above', value: 1600.001 }, 400, 'errors.alertPrice'],
        [{ symbol: 'INFY.NS', kind: 'move', value: 0.01 }, 400, 'errors.alertMove'],
        [{ symbol: 'INFY.NS', kind: 'move', value: 75 }, 400, 'errors.alertMove'],
        [{ symbol: 'INFY.NS', kind: 'sideways', value: 1 }, 400, 'errors.invalidInput'],
        [{ symbol: 'INFY.NS', kind: 'above', value: -5 }, 400, 'errors.invalidInput'],
        [{ symbol: 'NOPE', kind: 'above', value: 5 }, 404, 'errors.notFound'],
      ];
      for (const [body, status, key] of cases) {
        const res = await post('alertCreate', body);
        expect([res.status, res.body.data], JSON.stringify(body)).toEqual([status, key]);
      }
      const made = await post('alertCreate', {
        symbol: 'infy.ns',
        kind: 'above',
        value: 1600.5,
      });
      expect(made.body.data).toMatchObject({
        symbol: 'INFY.NS',
        kind: 'above',
        value: 1600.5,
        ref_price: 1500,
        status: 'active',
      });
      // Pinned against the real previous close: a move beyond today's.
      const move = Math.ceil(Math.abs(s.deps.market.quote('INFY.NS')!.changePercent)) + 1;
      const edited = await post('alertUpdate', {
        id: made.body.data.id,
        kind: 'move',
        value: move,
      });
      expect(edited.body.data).toMatchObject({ kind: 'move', value: move, status: 'active' });
      expect((await post('alertDelete', { id: made.body.data.id })).body.msg).toBe('ok');
      const after = await get('alertList');
      expect(after.body.data).toEqual({ rows: [], active: 0 });
    });

    it(`keeps at most ${ALERTS_MAX} active alerts per user`, async () => {
      const other = await s.signUp();
      controlMarket(s).pin('ITC.NS', 400);
      for (let i = 0; i < ALERTS_MAX; i++) {
        const res = await post(
          'alertCreate',
          { symbol: 'ITC.NS', kind: 'above', value: 401 + i },
          other.token,
        );
        expect(res.body.msg).toBe('ok');
      }
      const over = await post('alertCreate', { symbol: 'ITC.NS', kind: 'below', value: 300 }, other.token);
      expect([over.status, over.body]).toEqual([
        409,
        { msg: 'no', data: 'errors.alertLimit', params: { max: 50 } },
      ]);
    });

    it('fires exactly once when a tick crosses it, into the inbox, with its unread count', async () => {
      const other = await s.signUp();
      // The real simulator, moved by the clock: first to a time its market is open.
      const ins = s.deps.market.instrument('EURUSD=X')!;
      const now = s.clock.now();
      if (!isMarketOpen(ins, now)) s.clock.advance(nextSession(ins.schedule, now).open - now + 60_000);
      const start = s.deps.market.quote(ins.symbol)!.price;
      const step = 10 ** -ins.decimals;
      const up = await post(
        'alertCreate',
        { symbol: ins.symbol, kind: 'above', value: Number((start + step).toFixed(ins.decimals)) },
        other.token,
      );
      const down = await post(
        'alertCreate',
        { symbol: ins.symbol, kind: 'below', value: Number((start - step).toFixed(ins.decimals)) },
        other.token,
      );
      expect([up.body.msg, down.body.msg]).toEqual(['ok', 'ok']);
      let fired = 0;
      let seconds = 0;
      while (fired === 0 && seconds < 3600) {
        s.clock.advance(1000);
        seconds++;
        s.deps.market.sync();
        // Two evaluators at once (two instances, or a tick arriving mid-run): one firing.
        const both = await Promise.all([evaluateAlerts(s.deps), evaluateAlerts(s.deps)]);
        fired = both[0] + both[1];
      }
      expect(fired).toBe(1);
      const list = (await get('alertList', {}, other.token)).body.data;
      const done = list.rows.find((r: { status: string }) => r.status === 'fired');
      const price = done.fired_price as number;
      expect(done.kind === 'above' ? price >= done.value : price <= done.value).toBe(true);
      expect(list.active).toBe(1);
      // Later ticks on the same side do not fire it again.
      for (let i = 0; i < 5; i++) {
        s.clock.advance(1000);
        expect(await evaluateAlerts(s.deps)).toBeLessThanOrEqual(1);
      }
      const firedRows = await s.deps.database.db
        .selectFrom('notifications')
        .select(['ref_id'])
        .where('user_id', '=', other.id)
        .where('ref_id', '=', done.id)
        .execute();
      expect(firedRows).toHaveLength(1);
      const inbox = await get('notificationList', {}, other.token);
      const item = inbox.body.data.rows.find(
        (r: { params: { kind: string } }) => r.params.kind === done.kind,
      );
      expect(item).toMatchObject({ kind: 'alert', symbol: ins.symbol, read: false });
      expect(item.params).toMatchObject({ name: ins.name, value: done.value, price: done.fired_price });
      const unread = await get('notificationUnread', {}, other.token);
      expect(unread.body.data.unread_count).toBe(inbox.body.data.unread);
      expect(unread.body.data.latest_id).toBe(inbox.body.data.rows[0].id);
      expect((await post('notificationRead', { id: item.id }, other.token)).body.msg).toBe('ok');
      expect((await post('notificationRead', {}, other.token)).body.msg).toBe('ok');
      expect((await get('notificationUnread', {}, other.token)).body.data.unread_count).toBe(0);
      // Editing a fired alert arms it again.
      const level = Number((s.deps.market.quote(ins.symbol)!.price + 100 * step).toFixed(ins.decimals));
      const rearmed = await post('alertUpdate', { id: done.id, kind: 'above', value: level }, other.token);
      expect(rearmed.body.data).toMatchObject({ status: 'active', fired_at: null });
    });

    it('is evaluated by the tick job after every market tick', async () => {
      const other = await s.signUp();
      const market = controlMarket(s);
      market.pin('WIPRO.NS', 300);
      const made = await post('alertCreate', { symbol: 'WIPRO.NS', kind: 'below', value: 290 }, other.token);
      expect(made.body.msg).toBe('ok');
      const stop = startJobs(s.deps, watchlistJobs);
      try {
        market.pin('WIPRO.NS', 289.5);
        s.clock.advance(1000);
        s.deps.market.sync();
        await vi.waitFor(async () => {
          const n = await get('notificationUnread', {}, other.token);
          expect(n.body.data.unread_count).toBe(1);
        });
      } finally {
        stop();
      }
    });
  });

  describe.skipIf(!enabled)('onboarding', () => {
    it('ticks each step from the server’s own state', async () => {
      const fresh = await s.signUp();
      const state = async () => (await get('onboarding', {}, fresh.token)).body.data;
      expect(await state()).toEqual({
        identity: 0,
        trade_password: false,
        bank_card: false,
        funded: false,
        watchlist: false,
        second_factor: false,
        done: false,
      });
      const image = (await upload(s, fresh.token)).body.data as { url: string };
      await post(
        'kycSubmit',
        {
          real_name: 'Asha Rao',
          id_type: 'passport',
          id_number: 'A1234567',
          id_number_img: image.url,
          id_number_img_two: image.url,
        },
        fresh.token,
      );
      expect((await state()).identity).toBe(1);
      await s.deps.database.db
        .updateTable('kyc')
        .set({ status: 2 })
        .where('user_id', '=', fresh.id)
        .execute();
      await setTradePassword(s, fresh.id);
      await addCard(s, fresh.token);
      await fund(s, fresh.token, 5000);
      expect(await state()).toMatchObject({
        identity: 2,
        trade_password: true,
        bank_card: true,
        funded: true,
        done: false,
      });
      await post('favouriteAdd', { symbol: 'AAPL' }, fresh.token);
      expect(await state()).toMatchObject({ watchlist: true, second_factor: false, done: true });
      // A second factor is offered beside the checklist, not one of its steps.
      await enrolTotp(s, fresh.token);
      expect(await state()).toMatchObject({ second_factor: true, done: true });
    });
  });
});

describe('market depth and search (simulator)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('quotes five levels a side around the quote, wider for thin instruments', async () => {
    const spreads: Record<string, number> = {};
    for (const symbol of ['RELIANCE.NS', 'AAPL', 'EURUSD=X', 'IRCTC.BO', 'HAVELLS.BO']) {
      const res = await s.call('depth', { query: { symbol } });
      expect(res.body.msg).toBe('ok');
      const d = res.body.data;
      const q = s.deps.market.quote(symbol)!;
      expect(d.price).toBe(q.price);
      const { bids, asks, spread } = d.book;
      expect(bids).toHaveLength(5);
      expect(asks).toHaveLength(5);
      expect(bids[0].price).toBeLessThan(d.price);
      expect(asks[0].price).toBeGreaterThan(d.price);
      expect(spread).toBeCloseTo(asks[0].price - bids[0].price, 8);
      for (const side of [bids, asks]) {
        let total = 0;
        for (const [i, level] of side.entries()) {
          expect(Number.isInteger(level.qty) && level.qty > 0).toBe(true);
          total += level.qty;
          expect(level.total).toBe(total);
          if (i > 0)
            expect(side === bids ? level.price < side[i - 1].price : level.price > side[i - 1].price).toBe(
              true,
            );
        }
      }
      spreads[symbol] = spread / d.price;
      expect(d.high_52w).toBeGreaterThanOrEqual(d.high);
      expect(d.low_52w).toBeLessThanOrEqual(d.low);
      expect(d.low).toBeLessThanOrEqual(d.price);
      expect(d.high).toBeGreaterThanOrEqual(d.price);
      expect(typeof d.session.open).toBe('boolean');
      if (d.session.open) expect(d.session.opens_at).toBeNull();
      else expect(d.session.opens_at).toBeGreaterThan(s.clock.now());
    }
    // Relative spread follows liquidity: a heavily traded name quotes tighter than a thin one.
    const volume = (symbol: string) =>
      (s.deps.market.instrument(symbol) as unknown as { volume: number }).volume;
    const [thick, thin] = ['RELIANCE.NS', 'HAVELLS.BO'].sort((a, b) => volume(b) - volume(a));
    expect(spreads[thick!]).toBeLessThanOrEqual(spreads[thin!]!);
  });

  it('searches by name or code across every market', async () => {
    const find = async (q: string) =>
      (
        (await s.call('marketSearch', { query: { q } })).body.data.rows as Array<{
          stock: string;
          market: string;
        }>
      ).map((r) => r.stock);
    expect((await find('reliance'))[0]).toBe('RELIANCE.NS');
    expect(await find('usd/inr')).toContain('USDINR=X');
    const markets = new Set(
      (
        (await s.call('marketSearch', { query: { q: 'a', limit: 30 } })).body.data.rows as Array<{
          market: string;
        }>
      ).map((r) => r.market),
    );
    expect(markets.size).toBeGreaterThan(1);
    const bad = await s.call('marketSearch', { query: { q: '' } });
    expect([bad.status, bad.body.data]).toEqual([400, 'errors.invalidInput']);
  });
});
