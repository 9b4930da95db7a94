import { describe, expect, it } from 'vitest';
import { checkBlockQuantity, clampIpoQuantity, ipoQuantityBounds } from '#shared/rules';

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

describe('block / QIP buy (SPEC §5; its charges are the server’s: tests/server/block-buy.test.ts)', () => {
  it('wants at least the minimum quantity', () => {
    expect(checkBlockQuantity(99, 100)).toBe('errors.belowMinimumQuantity');
    expect(checkBlockQuantity(100, 100)).toBeNull();
  });
});
