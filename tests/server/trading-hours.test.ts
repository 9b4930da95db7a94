import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { balanceOf, controlMarket, credit, idem } from '../support/trading';

const RICH = 100_000_000; // 1,000,000.00

describe.each(DIALECTS)('trading hours on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name, { ENFORCE_TRADING_HOURS: '1' });
    controlMarket(s).pin('RELIANCE.NS', 2500);
  });
  afterAll(async () => {
    await s?.close();
  });

  it.skipIf(!enabled)('rejects orders on a Sunday with noAvailableTime when hours are enforced', async () => {
    const u = await s.signUp();
    await credit(s, u.id, RICH);
    const now = new Date(s.clock.now());
    const toSunday = ((7 - now.getUTCDay()) % 7) * 86_400_000;
    const noon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12) - now.getTime();
    s.clock.advance(toSunday + noon);
    expect(new Date(s.clock.now()).getUTCDay()).toBe(0);
    const res = await s.call('dealBuy', {
      token: u.token,
      body: { tag: 'RELIANCE.NS', count: 1, price: 2500, mold: 'stock' },
      headers: idem(),
    });
    expect(res.body).toEqual({ msg: 'no', data: 'errors.noAvailableTime' });
    expect(await balanceOf(s, u.id)).toBe(RICH);
  });
});
