import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointName } from '#shared/contract/index';
import { PRICE_SCALE, priceToTicks } from '#shared/money';
import { seed } from '../../server/db/seed';
import { DAY_MS } from '../../server/market/hours';
import { DIALECTS, startTestServer, stillClock, type TestServer } from '../support/server';

/** The next instant after `from` that falls on `weekday` (0 Sunday) at `hhmmss` UTC. */
function next(from: number, weekday: number, hhmmss: string): number {
  const [h, m, s] = hhmmss.split(':').map(Number) as [number, number, number];
  const day = Math.floor(from / DAY_MS);
  for (let d = day + 1; ; d++) {
    if ((d + 4) % 7 === weekday) return d * DAY_MS + ((h * 60 + m) * 60 + s) * 1000;
  }
}

describe.each(DIALECTS)('market data on $name', ({ name, enabled }) => {
  let s: TestServer;
  /** A Wednesday 11:00 IST (NSE open) after now, and the Saturday after it (every market closed). */
  let live = 0;
  let weekend = 0;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, {}, { clock: stillClock() });
    live = next(s.clock.now(), 3, '05:30:00');
    weekend = next(live, 6, '12:00:00');
  });
  afterAll(async () => {
    await s?.close();
  });

  const get = (
    name: EndpointName,
    query: Record<string, string | number> = {},
    headers: Record<string, string> = {},
  ) => s.call(name, { query, headers });
  const moveTo = (t: number) => s.clock.advance(t - s.clock.now());

  describe.skipIf(!enabled)('while the NSE is open', () => {
    it('answers every market call with SPEC’s field names', async () => {
      moveTo(live);
      const y = await get('yahoo', { symbol: 'RELIANCE.NS', market: 'IN', mold: '1m' });
      expect(y.status).toBe(200);
      expect(y.body.msg).toBe('ok');
      expect(Object.keys(y.body.data).sort()).toEqual(
        [
          'symbol',
          'name',
          'market',
          'exchange_name',
          'region',
          'decimals',
          'price',
          'change',
          'changePercent',
          'percent_change',
          'open',
          'high',
          'low',
          'prev_close',
          'volume',
          'as_of',
          'rows',
        ].sort(),
      );
      expect(Object.keys(y.body.data.rows[0]).sort()).toEqual(
        ['timestamp', 'open', 'high', 'low', 'close', 'volume', 'change'].sort(),
      );
      const list = await get('stockList', { market: 'IN' });
      expect(Object.keys(list.body.data.rows[0]).sort()).toEqual(
        [
          'id',
          'stock',
          'name',
          'market',
          'market_name',
          'exchange_name',
          'region',
          'decimals',
          'prasent',
          'close_prices',
          'percent_change',
          'change',
        ].sort(),
      );
      const cats = await get('categoryList');
      expect(cats.body.data.categories.map((c: { category_code: string }) => c.category_code)).toEqual([
        'NSE',
        'BSE',
        'US',
      ]);
      expect(Object.keys(cats.body.data.categories[0].stocks[0]).sort()).toEqual(
        ['id', 'stock_name', 'stock_code', 'category_code'].sort(),
      );
      const fx = await get('currencyList');
      expect(Object.keys(fx.body.data.rows[0]).sort()).toEqual(
        ['stock', 'name', 'prasent', 'percent_change', 'price_change_percent', 'change', 'decimals'].sort(),
      );
      expect(fx.body.data.rows).toHaveLength(10);
      expect(fx.body.data.count).toBeGreaterThan(10);
      for (const market of ['FUTURE', 'CGI']) {
        const rows = (await get('marketList', { market })).body.data.rows;
        expect(rows.length, market).toBeGreaterThan(3);
        expect(Object.keys(rows[0]).sort()).toEqual(
          [
            'stock',
            'name',
            'prasent',
            'current_price',
            'percent_change',
            'change',
            'exchange_name',
            'market',
            'decimals',
          ].sort(),
        );
        expect(rows.every((r: { market: string }) => r.market === market)).toBe(true);
      }
      const idx = await get('indexList', { category: 'nse' });
      expect(idx.body.data.rows.map((r: { symbol: string }) => r.symbol)).toContain('^NSEI');
      expect(idx.body.data.rows[0].spark.length).toBeGreaterThan(10);
      expect(idx.body.data.rows[0].spark.length).toBeLessThanOrEqual(48);
    });

    it('quote = list price = last 1-minute close = today’s bar in every period, in exact ticks', async () => {
      moveTo(live + 17_000);
      const markets = {
        'RELIANCE.NS': 'IN',
        'DMART.BO': 'IN',
        '^NSEI': 'INDEX',
        'USDINR=X': 'FOREX',
        'GC=F': 'FUTURE',
      };
      for (const [symbol, market] of Object.entries(markets)) {
        // The clock stands still (stillClock): every answer and the provider's own read are of one instant.
        {
          const quote = (await get('quote', { symbol })).body.data;
          const [m1, d1, w1, mo1] = await Promise.all(
            ['1m', '1d', '1wk', '1mo'].map(async (mold) => (await get('yahoo', { symbol, mold })).body.data),
          );
          const list = (await get('stockList', { symbol, market })).body.data.rows;
          const answers = [quote, m1, d1, w1, mo1];
          for (const a of answers) expect(a.as_of).toBe(quote.as_of);
          const row = list.find((r: { stock: string }) => r.stock === symbol);
          expect(row.prasent, symbol).toBe(quote.price);
          expect(row.close_prices).toBe(quote.prev_close);
          for (const a of [m1, d1, w1, mo1]) {
            expect(a.price).toBe(quote.price);
            expect(a.rows.at(-1).close).toBe(quote.price);
          }
          expect(quote.rows).toHaveLength(1);
          expect(quote.rows[0]).toEqual(d1.rows.at(-1));
          expect(d1.rows.at(-1)).toMatchObject({
            open: quote.open,
            high: quote.high,
            low: quote.low,
            volume: quote.volume,
          });
          // The price money code will use is exactly the quoted one.
          expect(priceToTicks(quote.price) / PRICE_SCALE).toBe(quote.price);
          expect(s.deps.market.quote(symbol)!.price).toBe(quote.price);
        }
      }
    });

    it('gives five years of daily bars by default, and ranges and periods on request', async () => {
      const d = (await get('yahoo', { symbol: 'AAPL' })).body.data.rows;
      const span = d.at(-1).timestamp - d[0].timestamp;
      expect(span).toBeGreaterThan(4.99 * 365 * DAY_MS);
      expect(span).toBeLessThanOrEqual(5.01 * 365 * DAY_MS);
      const m3 = (await get('yahoo', { symbol: 'AAPL', mold: '1d', range: '3mo' })).body.data.rows;
      expect(m3.length).toBeGreaterThan(55);
      expect(m3.length).toBeLessThan(70);
      // The clock stands still between the two calls: today's bar is the same one.
      expect(m3.at(-1).timestamp).toBe(d.at(-1).timestamp);
      expect(m3.at(-2)).toEqual(d.at(-2));
      // The change of the first row of a range is measured from the bar before it, not zero.
      const i = d.findIndex((r: { timestamp: number }) => r.timestamp === m3[0].timestamp);
      expect(m3[0].change).toBeCloseTo(m3[0].close - d[i - 1].close, 6);
      // Answers of later ticks (the history kept as text, the live bar new) match the provider's bars.
      for (const mold of ['1m', '1d', '1wk']) {
        for (let i = 0; i < 3; i++) {
          s.clock.advance(61_000);
          const rows = (await get('yahoo', { symbol: 'INFY.NS', mold, range: '2y' })).body.data.rows;
          const candles = s.deps.market.candles('INFY.NS', mold as '1m' | '1d' | '1wk');
          const tail = candles.slice(candles.length - rows.length);
          expect(rows.map((r: { timestamp: number }) => r.timestamp)).toEqual(tail.map((c) => c.t));
          expect(rows.map((r: { close: number }) => r.close)).toEqual(tail.map((c) => c.c));
          expect(rows.at(-1).volume).toBe(tail.at(-1)!.v);
          const prev = candles[candles.length - rows.length - 1];
          if (prev) expect(rows[0].change).toBeCloseTo(rows[0].close - prev.c, 6);
          for (let j = 1; j < rows.length; j++)
            expect(rows[j].change).toBeCloseTo(rows[j].close - rows[j - 1].close, 6);
        }
      }
      const max = (await get('yahoo', { symbol: 'AAPL', mold: '1mo' })).body.data.rows;
      expect(new Date(max[0].timestamp).getUTCFullYear()).toBe(2018);
    });

    it('gets a new ETag when the price moves, and a 304 while it does not', async () => {
      const first = await get('quote', { symbol: 'TCS.NS' });
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const same = await get('quote', { symbol: 'TCS.NS' }, { 'if-none-match': etag });
      expect(same.status).toBe(304);
      s.clock.advance(2000);
      const moved = await get('quote', { symbol: 'TCS.NS' }, { 'if-none-match': etag });
      expect(moved.status).toBe(200);
      expect(moved.headers.etag).not.toBe(etag);
      expect(moved.body.data.as_of).toBeGreaterThan(first.body.data.as_of);
    });
  });

  describe.skipIf(!enabled)('on a weekend (every market closed)', () => {
    it('answers 304 across ticks, since nothing changes', async () => {
      moveTo(weekend);
      const first = await get('stockList', { market: 'US', page: 2 });
      expect(first.status).toBe(200);
      s.clock.advance(5000);
      const again = await get(
        'stockList',
        { market: 'US', page: 2 },
        { 'if-none-match': String(first.headers.etag) },
      );
      expect(again.status).toBe(304);
      s.clock.advance(3600_000);
      const later = await get('stockList', { market: 'US', page: 2 });
      expect(later.headers.etag).toBe(first.headers.etag);
      expect(later.body).toEqual(first.body);
      // A quote is as of Friday's close all weekend: the same bytes.
      const quote = await get('quote', { symbol: 'AAPL' });
      s.clock.advance(60_000);
      const quoteAgain = await get(
        'quote',
        { symbol: 'AAPL' },
        { 'if-none-match': String(quote.headers.etag) },
      );
      expect(quoteAgain.status).toBe(304);
    });

    it('pages through a market without gaps or repeats', async () => {
      const seen: string[] = [];
      const first = await get('stockList', { market: 'in' });
      const count = first.body.data.count;
      expect(count).toBeGreaterThan(30);
      for (let page = 1; page <= Math.ceil(count / 10); page++) {
        const res = await get('stockList', { market: 'IN', page, limit: 10 });
        expect(res.body.data.count).toBe(count);
        seen.push(...res.body.data.rows.map((r: { stock: string }) => r.stock));
      }
      expect(seen).toHaveLength(count);
      expect(new Set(seen).size).toBe(count);
      const beyond = await get('stockList', { market: 'IN', page: 99 });
      expect(beyond.body).toEqual({ msg: 'ok', data: { rows: [], count } });
      const big = await get('stockList', { market: 'IN', limit: 100 });
      expect(big.body.data.rows).toHaveLength(count);
      const nse = await get('stockList', { category: 'NSE', limit: 100 });
      expect(nse.body.data.rows.every((r: { stock: string }) => r.stock.endsWith('.NS'))).toBe(true);
    });

    it.each([
      ['RELIANCE.NS', ' reliance '],
      ['RELIANCE.NS', 'RELIANCE'],
      ['RELIANCE.NS', 'reliance industries'],
      ['TCS.NS', 'tcs'],
      ['TATAMOTORS.NS', 'Tata Motors'],
      ['AAPL', 'aapl'],
    ])('search finds %s by %j (trimmed, any case, code or name)', async (symbol, text) => {
      const res = await get('stockList', { symbol: text });
      expect(res.body.data.rows[0].stock).toBe(symbol);
    });

    it('searches forex, futures and treasury by code', async () => {
      const fx = await get('currencyList', { code: ' usd/inr ' });
      expect(fx.body.data.rows.map((r: { stock: string }) => r.stock)).toEqual(['USDINR=X']);
      expect(fx.body.data.count).toBe(1);
      const inr = await get('currencyList', { code: 'inr', limit: 100 });
      expect(inr.body.data.rows.every((r: { stock: string }) => r.stock.includes('INR'))).toBe(true);
      const gold = await get('marketList', { market: 'FUTURE', code: 'gc' });
      expect(gold.body.data.rows[0].stock).toBe('GC=F');
      const none = await get('marketList', { market: 'CGI', code: 'nothing-like-this' });
      expect(none.body).toEqual({ msg: 'ok', data: { rows: [] } });
    });

    it.each([
      ['yahoo', { symbol: 'NOPE' }, 404, 'errors.unknownSymbol'],
      ['yahoo', { symbol: 'AAPL', market: 'IN' }, 404, 'errors.unknownSymbol'],
      ['yahoo', { symbol: 'AAPL', market: 'MARS' }, 400, 'errors.unknownMarket'],
      ['yahoo', { symbol: 'AAPL', mold: '5m' }, 400, 'errors.invalidInput'],
      ['yahoo', { symbol: 'AAPL', range: '7y' }, 400, 'errors.invalidInput'],
      ['yahoo', { symbol: '' }, 400, 'errors.invalidInput'],
      ['yahoo', { symbol: '<script>' }, 400, 'errors.invalidInput'],
      ['yahoo', { symbol: 'A'.repeat(33) }, 400, 'errors.invalidInput'],
      ['yahoo', {}, 400, 'errors.invalidInput'],
      ['quote', { symbol: 'NOPE.NS' }, 404, 'errors.unknownSymbol'],
      ['quote', { symbol: 'AAPL', interval: '1wk' }, 400, 'errors.invalidInput'],
      ['quote', { symbol: 'AAPL', range: '5d' }, 400, 'errors.invalidInput'],
      ['stockList', { market: 'XX' }, 400, 'errors.unknownMarket'],
      ['stockList', { category: 'MOON' }, 400, 'errors.unknownMarket'],
      ['stockList', { page: 0 }, 400, 'errors.invalidInput'],
      ['stockList', { page: -1 }, 400, 'errors.invalidInput'],
      ['stockList', { page: 'two' }, 400, 'errors.invalidInput'],
      ['stockList', { limit: 101 }, 400, 'errors.invalidInput'],
      ['stockList', { limit: 0 }, 400, 'errors.invalidInput'],
      ['stockList', { limit: 1.5 }, 400, 'errors.invalidInput'],
      ['stockList', { symbol: 'x'.repeat(65) }, 400, 'errors.invalidInput'],
      ['indexList', { category: 'MOON' }, 400, 'errors.unknownMarket'],
      ['currencyList', { page: 100001 }, 400, 'errors.invalidInput'],
      ['currencyList', { code: 'x'.repeat(33) }, 400, 'errors.invalidInput'],
      ['marketList', {}, 400, 'errors.invalidInput'],
      ['marketList', { market: 'STOCK' }, 400, 'errors.invalidInput'],
      ['marketList', { market: 'FUTURE', code: 'x'.repeat(33) }, 400, 'errors.invalidInput'],
    ])('%s with %j answers %i %s', async (name, query, status, key) => {
      const res = await get(name as EndpointName, query as Record<string, string | number>);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ msg: 'no', data: key });
    });
  });

  describe.skipIf(!enabled)('catalogue seed', () => {
    it('has IPOs around today in every state, whose listed symbols are quoted', async () => {
      const db = s.deps.database.db;
      const ipos = await db.selectFrom('ipos').selectAll().orderBy('id').execute();
      const seededAt = Number(ipos[0]!.issue_start_date) + DAY_MS;
      expect(new Set(ipos.map((i) => i.status))).toEqual(new Set(['Forthcoming', 'Closed', 'Listed']));
      for (const ipo of ipos) {
        const [start, end, listing] = [ipo.issue_start_date, ipo.issue_end_date, ipo.listing_date].map(
          Number,
        );
        expect(start).toBeLessThan(end!);
        expect(end).toBeLessThan(listing!);
        expect(ipo.min).toBe(100);
        expect(ipo.max % 100).toBe(0);
        expect(Number(ipo.issue_price)).toBeGreaterThan(0);
        if (ipo.status === 'Forthcoming') expect(start).toBeLessThanOrEqual(seededAt);
        if (ipo.status === 'Listed') {
          // The clock has moved on to the weekend; a listed IPO trades like any stock.
          const q = await get('quote', { symbol: ipo.symbol });
          expect(q.body.msg, ipo.symbol).toBe('ok');
        }
        if (listing! > s.clock.now()) {
          expect((await get('quote', { symbol: ipo.symbol })).body.data).toBe('errors.unknownSymbol');
        }
      }
    });

    it('has block-trading and QIP items in both regions, a little below the market', async () => {
      const items = await s.deps.database.db.selectFrom('block_items').selectAll().execute();
      expect(new Set(items.map((i) => i.kind))).toEqual(new Set(['bulk', 'finalize']));
      expect(new Set(items.map((i) => i.region))).toEqual(new Set(['IN', 'US']));
      for (const item of items) {
        expect(item.min_qty).toBeGreaterThanOrEqual(100);
        const ins = s.deps.market.instrument(item.symbol)!;
        expect(ins.region).toBe(item.region);
        const market = priceToTicks(s.deps.market.quote(item.symbol)!.price);
        // Seeded days before this weekend; the market has moved, but not by a third.
        expect(Number(item.price)).toBeGreaterThan(market * 0.66);
        expect(Number(item.price)).toBeLessThan(market * 1.33);
      }
    });

    it('has mutual funds with a published NAV and no promised return, and a second seed adds nothing', async () => {
      const db = s.deps.database.db;
      const funds = await db.selectFrom('funds').selectAll().execute();
      expect(funds.length).toBeGreaterThan(0);
      for (const f of funds) {
        // Redeemable on any business day, nothing promised: the fixed-term columns stay empty.
        expect([f.investment_period, f.min_return, f.max_return]).toEqual([0, 0, 0]);
        expect(f.nav).toBeGreaterThan(0);
        expect(f.nav_day).not.toBeNull();
        expect(f.category).toBeTruthy();
        expect(Number(f.amount)).toBeGreaterThan(0);
      }
      const counts = async () =>
        Promise.all(
          (['ipos', 'block_items', 'funds'] as const).map(async (t) =>
            Number(
              (
                await db
                  .selectFrom(t)
                  .select((eb) => eb.fn.countAll().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          ),
        );
      const before = await counts();
      await seed(s.deps);
      expect(await counts()).toEqual(before);
    });
  });
});

describe.each(DIALECTS)('Yahoo-style provider on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) {
      s = await startTestServer(name, {
        MARKET_PROVIDER: 'yahoo',
        YAHOO_FIXTURES: path.resolve(__dirname, '../fixtures/yahoo'),
      });
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  describe.skipIf(!enabled)('from recorded chart files', () => {
    it('serves quotes and candles from the files and says the data is not simulated', async () => {
      const config = await s.call('config');
      expect(config.body.data).toContainEqual({ tag: 'simulated_market', value: '0' });
      const y = await s.call('yahoo', { query: { symbol: 'AAPL', mold: '1m' } });
      expect(y.body.msg).toBe('ok');
      expect(y.body.data.rows.length).toBeGreaterThan(10);
      expect(y.body.data.rows.at(-1).close).toBe(y.body.data.price);
      const d = await s.call('yahoo', { query: { symbol: 'AAPL', mold: '1d', range: 'max' } });
      expect(d.body.data.rows).toHaveLength(23);
      const missing = await s.call('yahoo', { query: { symbol: 'MSFT' } });
      expect(missing.status).toBe(503);
      expect(missing.body).toEqual({ msg: 'no', data: 'errors.quoteUnavailable' });
      const ipo = await s.call('quote', { query: { symbol: 'ZENTRIX.NS' } });
      expect(ipo.body).toEqual({ msg: 'no', data: 'errors.unknownSymbol' });
    });

    it('says depth is not available rather than inventing an order book', async () => {
      const res = await s.call('depth', { query: { symbol: 'AAPL' } });
      expect(res.body.msg).toBe('ok');
      expect(res.body.data.book).toBeNull();
      expect(res.body.data.price).toBeGreaterThan(0);
      expect(res.body.data.high_52w).toBeGreaterThanOrEqual(res.body.data.low_52w);
    });
  });
});
