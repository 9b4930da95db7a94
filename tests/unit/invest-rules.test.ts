import { describe, expect, it } from 'vitest';
import { PRICE_SCALE, priceToTicks, rateToTicks } from '#shared/money';
import {
  blockCostMinor,
  blockMaxQuantity,
  checkBlockQuantity,
  clampIpoQuantity,
  fundPeriod,
  ipoQuantityBounds,
} from '#shared/rules';

describe('IPO quantity (SPEC §5: digits, clamped between min and max, steps of 100)', () => {
  it('clamps below the minimum and above the maximum', () => {
    expect(clampIpoQuantity(0, 100, 2000)).toBe(100);
    expect(clampIpoQuantity(99_999, 100, 2000)).toBe(2000);
  });

  it('takes whole lots of 100, rounding down', () => {
    expect(clampIpoQuantity(350, 100, 2000)).toBe(300);
    expect(clampIpoQuantity(199, 100, 2000)).toBe(100);
    expect(clampIpoQuantity(Number.NaN, 100, 2000)).toBe(100);
  });

  it('keeps the bounds themselves on whole lots', () => {
    expect(ipoQuantityBounds(150, 1250)).toEqual({ min: 200, max: 1200 });
    expect(clampIpoQuantity(1250, 150, 1250)).toBe(1200);
  });
});

describe('block / QIP buy (SPEC §5, fee 0.03 %)', () => {
  it('costs the value plus the fee, each HALF_UP, in account currency', () => {
    // 100 × 2,345.67 = 234,567.00; fee 70.3701 → 70.37
    expect(blockCostMinor(priceToTicks(2345.67), 100, PRICE_SCALE)).toBe(23_456_700 + 7037);
    // $21.15 × 100 at 20 = ₹42,300.00; fee 12.69
    expect(blockCostMinor(priceToTicks(21.15), 100, rateToTicks('20')!)).toBe(4_230_000 + 1269);
  });

  it('defaults the maximum to the most the balance pays for, fee included', () => {
    const price = priceToTicks(1000);
    // 100,030.00 buys exactly 100 at 1,000 + 0.03 %
    expect(blockMaxQuantity(10_003_000, price, PRICE_SCALE)).toBe(100);
    expect(blockMaxQuantity(10_002_999, price, PRICE_SCALE)).toBe(99);
    expect(blockMaxQuantity(0, price, PRICE_SCALE)).toBe(0);
    // The result is exact for awkward prices too: one more unit would not be covered.
    const odd = priceToTicks(333.33);
    const max = blockMaxQuantity(5_000_000, odd, PRICE_SCALE);
    expect(blockCostMinor(odd, max, PRICE_SCALE)).toBeLessThanOrEqual(5_000_000);
    expect(blockCostMinor(odd, max + 1, PRICE_SCALE)).toBeGreaterThan(5_000_000);
  });

  it('wants at least the minimum quantity', () => {
    expect(checkBlockQuantity(99, 100)).toBe('errors.belowMinimumQuantity');
    expect(checkBlockQuantity(100, 100)).toBeNull();
  });
});

describe('fund order period (SPEC §9)', () => {
  it('is in days under 30, else whole months of 30 days', () => {
    expect(fundPeriod(7)).toEqual({ unit: 'days', count: 7 });
    expect(fundPeriod(29)).toEqual({ unit: 'days', count: 29 });
    expect(fundPeriod(30)).toEqual({ unit: 'months', count: 1 });
    expect(fundPeriod(90)).toEqual({ unit: 'months', count: 3 });
    expect(fundPeriod(100)).toEqual({ unit: 'months', count: 3 });
  });
});
