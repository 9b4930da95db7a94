import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divRoundHalfUp,
  feeMinor,
  fromMinor,
  priceAtBps,
  priceToTicks,
  toMinor,
  tradeValueMinor,
} from '#shared/money';
import { linesMatching } from '../support/source';

describe('money', () => {
  it('parses decimal strings exactly and rejects anything else', () => {
    expect(toMinor('1234.5')).toBe(123450);
    expect(toMinor('0.07')).toBe(7);
    expect(toMinor('-3.10')).toBe(-310);
    for (const bad of ['', '1.234', '1e3', 'abc', '1,000', '--1', '.5']) expect(toMinor(bad)).toBeNull();
  });

  it('round-trips every integer amount through its string', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (minor) => toMinor(fromMinor(minor)) === minor),
    );
  });

  it('rounds half away from zero, once', () => {
    expect(divRoundHalfUp(5n, 2n)).toBe(3n);
    expect(divRoundHalfUp(-5n, 2n)).toBe(-3n);
    expect(divRoundHalfUp(4n, 3n)).toBe(1n);
    expect(divRoundHalfUp(7n, 4n)).toBe(2n);
  });

  it('values a trade in minor units without float error', () => {
    // 0.1 + 0.2 style traps: 3 × 1234.05 = 3702.15 exactly.
    expect(tradeValueMinor(priceToTicks(1234.05), 3)).toBe(370215);
    // A USD price converted at 20.
    expect(tradeValueMinor(priceToTicks(230.15), 10, priceToTicks(20))).toBe(4603000);
    // Half a paisa rounds up.
    expect(tradeValueMinor(priceToTicks(0.005), 1)).toBe(1);
  });

  it('charges the 0.03 % block fee HALF_UP', () => {
    expect(feeMinor(10_000_00, 3)).toBe(300);
    expect(feeMinor(1_666, 3)).toBe(0);
    expect(feeMinor(1_667, 3)).toBe(1);
  });

  it('makes a price from another in basis points, HALF_UP to its places, exactly', () => {
    // 95 % of ₹370 is ₹351.50: whole rupees round half up (a float product could fall below .5).
    expect(priceAtBps(priceToTicks(370), 9_500, 0)).toBe(priceToTicks(352));
    expect(priceAtBps(priceToTicks(273), 9_500, 0)).toBe(priceToTicks(259));
    // Cents: 88 % of $24 is $21.12; 95 % of that is $20.064 → $20.06.
    expect(priceAtBps(priceToTicks(24), 8_800, 2)).toBe(priceToTicks(21.12));
    expect(priceAtBps(priceToTicks(21.12), 9_500, 2)).toBe(priceToTicks(20.06));
    // 96 % of 10.10 is 9.696 → 9.70; 95 % of 10.10 is 9.595, a half: 9.60 (10.1 * 0.95 * 100 is 959.4999… in floats).
    expect(priceAtBps(priceToTicks(10.1), 9_600, 2)).toBe(priceToTicks(9.7));
    expect(priceAtBps(priceToTicks(10.1), 9_500, 2)).toBe(priceToTicks(9.6));
    // Four places keep every tick; the whole price is itself.
    expect(priceAtBps(12_345, 10_000, 4)).toBe(12_345);
    expect(() => priceAtBps(12_345, 9_500, 5)).toThrow(RangeError);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 4 }),
        (ticks, bps, decimals) => {
          const out = priceAtBps(ticks, bps, decimals);
          const step = 10 ** (4 - decimals);
          // A whole number of the last place, within half of it of the exact product.
          return out % step === 0 && Math.abs(out * 10_000 - ticks * bps) <= (step * 10_000) / 2;
        },
      ),
    );
  });
});

describe('money scale lives in money.ts', () => {
  it('no other module multiplies or divides an amount by 100 itself', () => {
    const AMOUNT = /(minor|amount|balance|money|minimum|MIN_[A-Z]+|available)\w*\)*\s*[*/]\s*100\b/i;
    const offending = linesMatching(AMOUNT, (f) => f === 'src/shared/money.ts');
    expect(offending).toEqual([]);
    expect(AMOUNT.test('formatMoney(MIN_LOAN * 100, c)')).toBe(true);
    expect(AMOUNT.test('format(Math.abs(minor) / 100)')).toBe(true);
  });
});
