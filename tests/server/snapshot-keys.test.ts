import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

/**
 * Issue 12, hole 7: the market snapshot cached by raw URL, so any unknown query parameter made a new
 * entry (a cache an anonymous client could fill). It keys on the validated input, from which
 * validation removes any parameter the call does not take (issue 35: ignored, as most APIs do, so a
 * client sending SPEC's quote parameters to /v2/yahoo is answered; tests/unit/snapshot.test.ts:
 * spellings of one question share one entry, junk never makes one).
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
    'unknown parameters are ignored on every shared market call: the same answer',
    async () => {
      const calls = [
        ['quote', { symbol: 'TCS.NS' }, { cachebuster: 1 }],
        // The quote call's parameters sent to the chart call (issue 35): mold decides the period.
        ['yahoo', { symbol: 'RELIANCE.NS', market: 'IN', mold: '1d', range: '1d' }, { interval: '1wk' }],
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
