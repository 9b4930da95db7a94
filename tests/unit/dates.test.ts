import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dateLocale,
  formatAxisTime,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatExchangeAsOf,
  formatExchangeSession,
  formatExchangeTime,
  formatMessageTime,
  formatTime,
} from '../../src/shared/format';
import {
  civilDay,
  dayStart,
  nextSession,
  type ScheduleId,
  sessionOfDay,
} from '../../src/shared/market-hours';

/** One date and time format per interface language, written once (src/shared/format.ts). */
const AT = new Date(2026, 10, 24, 9, 5, 7).getTime();

describe('dates and times', () => {
  it.each([
    ['en', '24/11/2026, 09:05', '24/11/2026', '09:05:07'],
    ['de', '24.11.2026, 09:05', '24.11.2026', '09:05:07'],
    ['es', '24/11/2026, 09:05', '24/11/2026', '09:05:07'],
    ['zh', '2026/11/24 09:05', '2026/11/24', '09:05:07'],
  ])('%s: date and time "%s", date "%s", time "%s"', (language, dateTime, date, time) => {
    expect(formatDateTime(AT, language)).toBe(dateTime);
    expect(formatDate(AT, language)).toBe(date);
    expect(formatTime(AT, language)).toBe(time);
  });

  it('reads a regional or unknown language as its base (or English), never the browser default', () => {
    expect(dateLocale('en-US')).toBe('en-GB');
    expect(dateLocale('de-AT')).toBe('de-DE');
    expect(dateLocale('fr')).toBe('en-GB');
    expect(dateLocale(undefined)).toBe('en-GB');
    expect(formatDateTime(AT, 'en-US')).toBe('24/11/2026, 09:05');
  });

  it('uses the 24-hour clock in every language', () => {
    const evening = new Date(2026, 10, 24, 21, 30).getTime();
    for (const language of ['en', 'zh', 'es', 'de'])
      expect(formatDateTime(evening, language)).toContain('21:30');
  });

  it('writes a range with the year once when both ends share it', () => {
    const end = new Date(2026, 10, 28).getTime();
    expect(formatDateRange(AT, end, 'en')).toBe('24/11 – 28/11/2026');
    expect(formatDateRange(new Date(2025, 11, 30).getTime(), end, 'en')).toBe('30/12/2025 – 28/11/2026');
  });

  it('shows a message of today by its clock, an older one with its date', () => {
    expect(formatMessageTime(AT, 'en', AT + 60_000)).toBe('09:05');
    expect(formatMessageTime(AT, 'en', AT + 3 * 86_400_000)).toBe('24/11/2026, 09:05');
  });

  it('labels a chart axis by the bars it shows', () => {
    expect(formatAxisTime(AT, 'minute', 'en')).toBe('09:05');
    expect(formatAxisTime(AT, 'day', 'en')).toBe('24 Nov');
    expect(formatAxisTime(AT, 'month', 'de')).toMatch(/^Nov\.? 26$/);
  });

  it("tells an exchange's time in its zone, labelled, whatever the process's zone", () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/Los_Angeles', 'Asia/Tokyo']) {
        process.env.TZ = tz;
        // The process really is in that zone: its own clock reads differently in each.
        expect(new Date(Date.UTC(2026, 10, 24, 12)).getHours()).toBe(
          { UTC: 12, 'America/Los_Angeles': 4, 'Asia/Tokyo': 21 }[tz],
        );
        // Tuesday 24 Nov 2026: NSE opens 03:45 UTC, NYSE 14:30 UTC (EST), CME's session 23:00 UTC the evening before.
        const open = (s: ScheduleId) => sessionOfDay(s, civilDay(2026, 11, 24)).open;
        expect(formatExchangeTime(open('NSE'), 'NSE', 'clock', 'en')).toBe('09:15 IST');
        expect(formatExchangeTime(open('US'), 'US', 'clock', 'en')).toBe('09:30 ET');
        expect(formatExchangeTime(open('CME'), 'CME', 'weekdayClock', 'en')).toBe('Mon 17:00 CT');
        expect(formatExchangeTime(open('FX'), 'FX', 'clock', 'en')).toBe('00:00 UTC');
        expect(formatExchangeTime(open('NSE'), 'NSE', 'dateTime', 'en')).toBe('24/11/2026, 09:15 IST');
        expect(formatExchangeTime(open('NSE'), 'NSE', 'weekdayClock', 'de')).toBe('Di., 09:15 IST');
        // In July (daylight saving) NYSE still opens at 09:30 ET.
        expect(formatExchangeTime(sessionOfDay('US', civilDay(2026, 7, 15)).open, 'US', 'time', 'en')).toBe(
          '09:30:00 ET',
        );
        // Saturday 28 Nov, 01:05 UTC (06:35 IST): NSE opens Monday.
        const saturday = Date.UTC(2026, 10, 28, 1, 5);
        expect(formatExchangeSession(nextSession('NSE', saturday).open, 'NSE', saturday, 'en')).toBe(
          'Mon 09:15 IST',
        );
        // Tuesday 02:00 UTC is 07:30 IST (Monday evening in Los Angeles): the open is today on the
        // exchange's calendar, so the clock alone.
        const early = Date.UTC(2026, 10, 24, 2);
        expect(formatExchangeSession(nextSession('NSE', early).open, 'NSE', early, 'en')).toBe('09:15 IST');
        expect(formatExchangeAsOf(early - 60_000, 'NSE', early, 'en')).toBe('07:29:00 IST');
        // A chart's bars too: NSE's minute bars read from 09:15, its daily bar of the 24th (stamped at
        // Mumbai's midnight, the 23rd 18:30 UTC) is the 24th.
        expect(formatAxisTime(open('NSE'), 'minute', 'en', 'NSE')).toBe('09:15');
        expect(formatDate(dayStart('NSE', civilDay(2026, 11, 24)), 'en', 'NSE')).toBe('24/11/2026');
        expect(formatAxisTime(dayStart('NSE', civilDay(2026, 11, 24)), 'day', 'en', 'NSE')).toBe('24 Nov');
        expect(formatExchangeAsOf(early - 86_400_000, 'NSE', early, 'en')).toBe('23/11/2026, 07:30 IST');
      }
    } finally {
      process.env.TZ = zone;
    }
  });

  it('no screen formats a date by itself: every date goes through src/shared/format.ts', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const walk = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? walk(p) : /\.tsx?$/.test(e.name) ? [p] : [];
      });
    const own = /toLocale(Date|Time)?String\(|Intl\.DateTimeFormat\(/;
    const offenders = [...walk(path.join(root, 'src')), ...walk(path.join(root, 'workers'))]
      .filter((f) => !f.endsWith(path.join('shared', 'format.ts')))
      .filter((f) => own.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f));
    expect(offenders).toEqual([]);
  });
});
