import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

/**
 * Issue 12, hole 7: the market snapshot cached by raw URL, so any unknown query parameter made a new
 * entry (a cache an anonymous client could fill). It keys on the validated input and refuses
 * unknown parameters (tests/unit/snapshot.test.ts: spellings of one question share one entry).
 */
describe.each(DIALECTS)('market snapshot keys on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
  });
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(enabled)('unknown parameters are refused on every shared market call', async () => {
    const calls = [
      ['quote', { symbol: 'TCS.NS' }],
      ['categoryList', {}],
      ['stockList', { page: 1 }],
    ] as const;
    for (const [name, query] of calls) {
      const res = await s.call(name, { query: { ...query, cachebuster: 1 } });
      expect(res.status, name).toBe(400);
      expect(res.body, name).toEqual({ msg: 'no', data: 'errors.invalidInput' });
    }
  });
});
