import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

/**
 * Hole 7: the market snapshot cached by raw URL, so any unknown query parameter made a new
 * entry (a cache an anonymous client could fill). It keys on the validated input, from which
 * validation removes any parameter the call does not take (ignored, as most APIs do;
 * tests/unit/snapshot.test.ts: spellings of one question share one entry, junk never makes one),
 * in one spelling per question where two parameters can name the same thing (the chart's period:
 * `mold` or SPEC's `interval`).
 */
describe.each(DIALECTS)('market snapshot keys on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    // A clock that stands still (a Wednesday morning in Mumbai): no tick between two questions.
    let at = Date.UTC(2026, 10, 25, 5, 0, 0);
    const clock = {
      now: () => at,
      advance(ms: number) {
        at += ms;
      },
      offset: () => at - Date.now(),
    };
    s = await startTestServer(name, {}, { clock });
  });
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(enabled)(
    'the chart call takes its period from interval when mold is absent (SPEC §7), one entry per question',
    async () => {
      const market = s.deps.market;
      const candles = market.candles.bind(market);
      /** Handler runs: each reads the period's candles once. */
      let runs = 0;
      market.candles = (symbol, period) => {
        runs++;
        return candles(symbol, period);
      };
      try {
        const chart = async (query: Record<string, string>) => {
          const before = runs;
          const res = await s.call('yahoo', { query: { symbol: 'TCS.NS', ...query } });
          expect(res.status, JSON.stringify(query)).toBe(200);
          return { etag: res.headers.etag, rows: res.body.data.rows, ran: runs > before };
        };
        const gaps = (rows: Array<{ timestamp: number }>) =>
          rows.slice(1).map((r, i) => r.timestamp - rows[i]!.timestamp);
        const DAY = 86_400_000;

        // A client written from SPEC: interval names the period, weekly candles as with mold=1wk.
        const weekly = await chart({ interval: '1wk' });
        expect(weekly.ran).toBe(true);
        expect(Math.min(...gaps(weekly.rows))).toBeGreaterThanOrEqual(6 * DAY);
        const daily = await chart({});
        expect(daily.etag).not.toBe(weekly.etag);
        expect(Math.min(...gaps(daily.rows))).toBeLessThan(2 * DAY);
        // The same question as mold=1wk: the same entry, the handler not run again.
        const mold = await chart({ mold: '1wk' });
        expect(mold).toEqual({ ...weekly, ran: false });
        for (const period of ['1m', '1mo']) {
          const byInterval = await chart({ interval: period });
          expect(byInterval.ran).toBe(true);
          expect(await chart({ mold: period })).toEqual({ ...byInterval, ran: false });
        }

        // Both given and disagreeing: mold wins, interval is ignored and reaches no key.
        const both = await chart({ mold: '1d', interval: '1wk' });
        expect(both).toEqual({ ...daily, ran: false });
        expect(await chart({ mold: '1wk', interval: '1mo' })).toEqual({ ...weekly, ran: false });
        // A period's default range spelled out, or a range with 1m (which ignores it): the same entry.
        expect(await chart({ interval: '1d', range: '5y' })).toEqual({ ...daily, ran: false });
        const minutes = await chart({ mold: '1m' });
        expect(await chart({ interval: '1m', range: '5d' })).toEqual({ ...minutes, ran: false });
        // A range that is not the default is another question.
        const year = await chart({ interval: '1wk', range: '1y' });
        expect(year.ran).toBe(true);
        expect(year.rows.length).toBeLessThan(weekly.rows.length);

        // A period that is not one of SPEC's is refused, not answered as daily.
        const bad = await s.call('yahoo', { query: { symbol: 'TCS.NS', interval: '5m' } });
        expect(bad.status).toBe(400);
        expect(bad.body).toEqual({ msg: 'no', data: 'errors.invalidInput' });
      } finally {
        market.candles = candles;
      }
    },
  );

  it.runIf(enabled)(
    'unknown parameters are ignored on every shared market call: the same answer',
    async () => {
      const calls = [
        ['quote', { symbol: 'TCS.NS' }, { cachebuster: 1 }],
        ['yahoo', { symbol: 'RELIANCE.NS', market: 'IN', mold: '1d', range: '1d' }, { _: 1 }],
        ['categoryList', {}, { cachebuster: 1 }],
        ['stockList', { page: 1 }, { cachebuster: 1, _: 2 }],
      ] as const;
      for (const [name, query, extra] of calls) {
        const plain = await s.call(name, { query });
        const junk = await s.call(name, { query: { ...query, ...extra } });
        expect(plain.body.msg, name).toBe('ok');
        expect(junk.status, name).toBe(200);
        expect(junk.headers.etag, name).toBe(plain.headers.etag);
      }
    },
  );
});
