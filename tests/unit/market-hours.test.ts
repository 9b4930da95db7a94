import { describe, expect, it } from 'vitest';
import {
  assertTradingHours,
  isMarketOpen,
  lastSession,
  nextSession,
  type ScheduleId,
} from '../../server/market/hours';

const at = (iso: string) => Date.parse(iso);
const on = (schedule: ScheduleId) => ({ schedule });

describe('trading hours', () => {
  it.each([
    // NSE/BSE: 09:15–15:30 IST = 03:45–10:00 UTC, Monday to Friday.
    ['NSE', '2026-11-18T03:44:59Z', false],
    ['NSE', '2026-11-18T03:45:00Z', true],
    ['NSE', '2026-11-18T09:59:59Z', true],
    ['NSE', '2026-11-18T10:00:00Z', false],
    ['NSE', '2026-11-21T05:00:00Z', false],
    // US: 09:30–16:00 Eastern, with daylight saving (EDT in July, EST in December).
    ['US', '2026-07-15T13:30:00Z', true],
    ['US', '2026-07-15T13:29:59Z', false],
    ['US', '2026-12-15T14:00:00Z', false],
    ['US', '2026-12-15T14:30:00Z', true],
    ['US', '2026-12-15T20:59:59Z', true],
    ['US', '2026-12-15T21:00:00Z', false],
    // DST starts on the second Sunday of March 2026 (the 8th): Monday the 9th opens at 13:30 UTC.
    ['US', '2026-03-09T13:30:00Z', true],
    ['US', '2026-03-06T14:00:00Z', false],
    // Forex: round the clock on UTC weekdays.
    ['FX', '2026-11-23T00:00:00Z', true],
    ['FX', '2026-11-20T23:59:59Z', true],
    ['FX', '2026-11-21T00:00:00Z', false],
    // CME: Sunday 18:00 ET opens Monday's session; a break 17:00–18:00 ET; closed from Friday 17:00.
    ['CME', '2026-11-22T22:59:59Z', false],
    ['CME', '2026-11-22T23:00:00Z', true],
    ['CME', '2026-11-24T22:30:00Z', false],
    ['CME', '2026-11-24T23:30:00Z', true],
    ['CME', '2026-11-20T22:30:00Z', false],
  ] as const)('%s at %s: open = %s', (schedule, iso, open) => {
    expect(isMarketOpen(on(schedule), at(iso))).toBe(open);
  });

  it('finds the last and the next session around a weekend', () => {
    const saturday = at('2026-11-21T12:00:00Z');
    const last = lastSession('NSE', saturday);
    expect(new Date(last.open).toISOString()).toBe('2026-11-20T03:45:00.000Z');
    expect(new Date(last.close).toISOString()).toBe('2026-11-20T10:00:00.000Z');
    const next = nextSession('NSE', saturday);
    expect(new Date(next.open).toISOString()).toBe('2026-11-23T03:45:00.000Z');
    expect(new Date(nextSession('CME', saturday).open).toISOString()).toBe('2026-11-22T23:00:00.000Z');
  });

  it('rejects with "No available time" only when enforcement is on and the market is closed', () => {
    const closed = at('2026-11-21T05:00:00Z');
    const open = at('2026-11-18T05:00:00Z');
    const enforce = { market: { enforceHours: true } };
    const demo = { market: { enforceHours: false } };
    expect(() => assertTradingHours(on('NSE'), closed, enforce)).toThrow('errors.noAvailableTime');
    expect(() => assertTradingHours(on('NSE'), open, enforce)).not.toThrow();
    expect(() => assertTradingHours(on('NSE'), closed, demo)).not.toThrow();
  });
});
