import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { formatNumber, formatQuantity, formatTime, formatVolume, regionUnit } from '#shared/format';

/** Numbers as a trader reads them beside the money of their market. */
describe('quantities and volumes', () => {
  it('shows an order book’s quantities exactly, grouped as the instrument’s money is', () => {
    expect(formatQuantity(155000, 'INR')).toBe('1,55,000');
    expect(formatQuantity(155000, 'USD')).toBe('155,000');
    expect(formatQuantity(1281)).toBe('1,281');
  });

  it('gives volumes in lakh and crore beside rupees, K and M otherwise', () => {
    expect(formatVolume(1_340_000, 'INR')).toBe('13.40 L');
    expect(formatVolume(215_000_000, 'INR')).toBe('21.50 Cr');
    expect(formatVolume(99_999, 'INR')).toBe('99,999');
    expect(formatVolume(5_430_000, 'USD')).toBe('5.43M');
    expect(formatVolume(Number.NaN, 'INR')).toBe('—');
  });

  it('knows a region’s money', () => {
    expect(regionUnit('IN')).toBe('INR');
    expect(regionUnit('US')).toBe('USD');
  });
});

/**
 * Home's first render writes its figures and its as-of time without Intl (src/shared/format.ts
 * `fixed`, `formatTime`): the page's first Intl formatter loads the engine's locale data, one long
 * task of the start. What they write is what Intl writes.
 */
describe('figures and times as Intl writes them, without Intl', () => {
  const intlNumber = (locale: string, decimals: number, value: number) =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    }).format(value);

  it("makes no Intl formatter for Home's money, changes, quantities and as-of time", async () => {
    // A module of its own: no formatter made by another test is cached in it.
    vi.resetModules();
    const format = await import('#shared/format');
    const numbers = vi.spyOn(Intl, 'NumberFormat');
    const dates = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      expect(format.formatMoney('1234567.50')).toBe('₹12,34,567.50');
      expect(format.formatMoney(-123456, { unit: 'USD', symbol: '$' })).toBe('-$1,234.56');
      expect(format.formatPercent(-1.234)).toBe('-1.23%');
      expect(format.formatChange(0.5, 1)).toBe('+0.5');
      expect(format.formatPrice(2.675)).toBe('2.68');
      expect(format.formatQuantity(155000)).toBe('1,55,000');
      expect(format.formatTime(new Date(2026, 10, 24, 9, 5, 3).getTime(), 'en')).toBe('09:05:03');
      expect(numbers).not.toHaveBeenCalled();
      expect(dates).not.toHaveBeenCalled();
    } finally {
      numbers.mockRestore();
      dates.mockRestore();
    }
  });

  it('groups and rounds as Intl does (en-IN and en-US, 0–4 decimals, halves, -0, huge and tiny)', () => {
    const value = fc.oneof(
      fc.double({ noNaN: true, min: -1e23, max: 1e23 }),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
      fc.integer({ min: -1e12, max: 1e12 }).map((n) => n / 100),
      fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map((n) => Number(n) / 10 ** 4),
      fc.constantFrom(0, -0, 0.5, 1.005, 2.675, 9.995, -0.001, 99999.995, 999.9999, 1e-7, 5e-324, 1e21, 9.5),
    );
    fc.assert(
      fc.property(
        value,
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom('INR', 'USD'),
        (v, decimals, unit) => {
          const expected = Number.isFinite(v)
            ? intlNumber(unit === 'INR' ? 'en-IN' : 'en-US', decimals, v)
            : '—';
          expect(formatNumber(v, decimals, unit)).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('writes the time of day as every interface language does, in the phone’s zone', () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'Asia/Kolkata', 'America/New_York']) {
        process.env.TZ = tz;
        fc.assert(
          fc.property(
            fc.integer({ min: 0, max: 4_102_444_800_000 }),
            fc.constantFrom('en', 'zh', 'es', 'de'),
            (ms, language) => {
              const locale = { en: 'en-GB', zh: 'zh-CN', es: 'es-ES', de: 'de-DE' }[language];
              const intl = new Intl.DateTimeFormat(locale, {
                hour: '2-digit',
                minute: '2-digit',
                second: '2-digit',
                hourCycle: 'h23',
              }).format(ms);
              expect(formatTime(ms, language)).toBe(intl);
            },
          ),
          { numRuns: 500 },
        );
      }
    } finally {
      process.env.TZ = zone;
    }
  });
});
