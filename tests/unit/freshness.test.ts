import { describe, expect, it } from 'vitest';
import { UNIVERSE } from '../../server/market/universe';
import { civilDay, DAY_MS, scheduleOf, sessionOfDay } from '../../src/shared/market-hours';
import { CLOSE_SLACK_MS, DELAYED_AFTER, freshness, STALE_AFTER } from '../../src/ui/freshness';

/** Stale tiers: live · delayed · stale against the data's own poll interval; closed markets. */
const MIN = 60_000;

describe('freshness tiers', () => {
  const now = Date.UTC(2026, 10, 24, 8, 0); // a Tuesday, 13:30 IST: NSE open
  const every = 3_000;

  it('live within two intervals, delayed within six, stale after', () => {
    expect(freshness({ at: now - every, now, intervalMs: every })).toBe('live');
    expect(freshness({ at: now - DELAYED_AFTER * every, now, intervalMs: every })).toBe('live');
    expect(freshness({ at: now - DELAYED_AFTER * every - 1, now, intervalMs: every })).toBe('delayed');
    expect(freshness({ at: now - STALE_AFTER * every, now, intervalMs: every })).toBe('delayed');
    expect(freshness({ at: now - STALE_AFTER * every - 1, now, intervalMs: every })).toBe('stale');
  });

  it('its own interval: a 5 s list is still live where a 3 s balance is delayed', () => {
    const at = now - 8_000;
    expect(freshness({ at, now, intervalMs: 3_000 })).toBe('delayed');
    expect(freshness({ at, now, intervalMs: 5_000 })).toBe('live');
  });

  it('known not to be live is stale whatever its age; no interval and not stale is live', () => {
    expect(freshness({ at: now - 100, now, intervalMs: every, stale: true })).toBe('stale');
    expect(freshness({ at: now - DAY_MS, now })).toBe('live');
  });

  it('ages a price by when it was fetched, not by its own time', () => {
    expect(freshness({ at: now - 10 * MIN, fetchedAt: now - 1_000, now, intervalMs: every })).toBe('live');
  });
});

describe('closed markets', () => {
  const day = civilDay(2026, 11, 24); // Tuesday
  const nse = sessionOfDay('NSE', day); // 09:15–15:30 IST
  const every = 3_000;

  it('a price from the close is "closed" after the bell, even long after and even from the device', () => {
    const at = nse.close - 1_000; // stamped 15:29:59 IST
    for (const now of [nse.close + MIN, nse.close + 5 * 3_600_000]) {
      expect(freshness({ at, fetchedAt: at, now, intervalMs: every, schedule: 'NSE' })).toBe('closed');
      expect(freshness({ at, now, intervalMs: every, stale: true, schedule: 'NSE' })).toBe('closed');
    }
  });

  it('over the weekend the Friday close is still the closed price', () => {
    const friday = sessionOfDay('NSE', civilDay(2026, 11, 27));
    const sunday = friday.close + 2 * DAY_MS;
    expect(freshness({ at: friday.close - 30_000, now: sunday, intervalMs: every, schedule: 'NSE' })).toBe(
      'closed',
    );
  });

  it('a price from before the close is not "closed": it is judged by its age', () => {
    const at = nse.close - CLOSE_SLACK_MS - MIN;
    expect(freshness({ at, now: nse.close + MIN, intervalMs: every, schedule: 'NSE' })).toBe('stale');
  });

  it('while the market is open, tiers are by age (no "closed" from the day before)', () => {
    const now = nse.open + 30 * MIN;
    const yesterday = sessionOfDay('NSE', day - 1);
    expect(freshness({ at: yesterday.close, now, intervalMs: every, schedule: 'NSE' })).toBe('stale');
    expect(freshness({ at: now - 1_000, now, intervalMs: every, schedule: 'NSE' })).toBe('live');
  });

  it("judges the session and a price's own time by the server's clock, a fetch by the device's", () => {
    // The phone's clock is 20 minutes behind the server's: it still reads 15:15 IST at 15:35.
    const serverNow = nse.close + 5 * MIN;
    const now = serverNow - 20 * MIN;
    const at = nse.close - 1_000;
    expect(
      freshness({ at, fetchedAt: now - 1_000, now, serverNow, intervalMs: every, schedule: 'NSE' }),
    ).toBe('closed');
    // On the phone's clock alone the market is open and the price a second old: live, wrongly.
    expect(freshness({ at, fetchedAt: now - 1_000, now, intervalMs: every, schedule: 'NSE' })).toBe('live');
    // A price without a fetch time is aged against the server's clock (its own), not the phone's.
    const open = nse.open + 60 * MIN;
    expect(freshness({ at: open - 1_000, now: open - 20 * MIN, serverNow: open, intervalMs: every })).toBe(
      'live',
    );
    expect(freshness({ at: open - 10 * MIN, now: open + 20 * MIN, serverNow: open, intervalMs: every })).toBe(
      'stale',
    );
  });

  it('US hours follow daylight saving; forex trades through the night on weekdays', () => {
    const us = sessionOfDay('US', day); // November: EST, 14:30–21:00 UTC
    expect(new Date(us.close).toISOString()).toBe('2026-11-24T21:00:00.000Z');
    expect(freshness({ at: us.close - 1_000, now: us.close + MIN, intervalMs: every, schedule: 'US' })).toBe(
      'closed',
    );
    const midnight = Date.UTC(2026, 10, 24, 23, 30);
    expect(freshness({ at: midnight - 1_000, now: midnight, intervalMs: every, schedule: 'FX' })).toBe(
      'live',
    );
  });

  it("the app's schedule of an instrument (market, region) is the server's, for every instrument", () => {
    const wrong = UNIVERSE.filter((i) => scheduleOf(i.market, i.region) !== i.schedule).map(
      (i) => `${i.symbol}: ${i.market}/${i.region} → ${scheduleOf(i.market, i.region)}, server ${i.schedule}`,
    );
    expect(wrong).toEqual([]);
    expect(UNIVERSE.length).toBeGreaterThan(50);
  });
});
