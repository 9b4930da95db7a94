import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  dateLocale,
  formatAxisTime,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatMessageTime,
  formatTime,
} from '../../src/shared/format';

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
