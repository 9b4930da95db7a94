import { describe, expect, it } from 'vitest';
import { priceToTicks, ticksToPrice } from '#shared/money';
import {
  checkSellQuantity,
  checkStockQuantity,
  clampStockQuantity,
  holdingType,
  holdingTypeOfMarket,
  parseQuantity,
  protectedLimit,
  STOCK_QTY_MAX,
  stepStockQuantity,
} from '#shared/rules';

describe('stock trading quantity (SPEC §5)', () => {
  it('wants at least 1, counting an empty field as too few', () => {
    expect(checkStockQuantity(null, 'half')).toBe('trade.qty.min');
    expect(checkStockQuantity(0, 'full')).toBe('trade.qty.min');
    expect(checkStockQuantity(1, 'half')).toBeNull();
  });

  it('caps a half position at 50 and a full one at 100', () => {
    expect(STOCK_QTY_MAX).toEqual({ half: 50, full: 100 });
    expect(checkStockQuantity(50, 'half')).toBeNull();
    expect(checkStockQuantity(51, 'half')).toBe('trade.qty.maxHalf');
    expect(checkStockQuantity(51, 'full')).toBeNull();
    expect(checkStockQuantity(100, 'full')).toBeNull();
    expect(checkStockQuantity(101, 'full')).toBe('trade.qty.maxFull');
  });

  it('steps one unit within the bounds of the position size', () => {
    expect(stepStockQuantity(1, -1, 'half')).toBe(1);
    expect(stepStockQuantity(1, 1, 'half')).toBe(2);
    expect(stepStockQuantity(50, 1, 'half')).toBe(50);
    expect(stepStockQuantity(50, 1, 'full')).toBe(51);
    expect(stepStockQuantity(100, 1, 'full')).toBe(100);
    // An empty field steps to the minimum either way; an out-of-range one comes back inside.
    expect(stepStockQuantity(null, 1, 'half')).toBe(1);
    expect(stepStockQuantity(null, -1, 'half')).toBe(1);
    expect(stepStockQuantity(80, -1, 'half')).toBe(50);
    expect(stepStockQuantity(0, 1, 'full')).toBe(1);
  });

  it('clamps anything typed into 1..max', () => {
    expect(clampStockQuantity(0, 'half')).toBe(1);
    expect(clampStockQuantity(75, 'half')).toBe(50);
    expect(clampStockQuantity(75, 'full')).toBe(75);
    expect(clampStockQuantity(Number.NaN, 'full')).toBe(1);
  });

  it('parses digits only', () => {
    expect(parseQuantity('')).toBeNull();
    expect(parseQuantity('12')).toBe(12);
    expect(parseQuantity('1e3')).toBeNull();
  });

  it('does not sell more than is free to sell', () => {
    expect(checkSellQuantity(10, 10)).toBeNull();
    expect(checkSellQuantity(11, 10)).toBe('errors.insufficientShares');
  });
});

describe('holdings types', () => {
  it('reads the route param, falling back to stock', () => {
    expect(holdingType('forex')).toBe('forex');
    expect(holdingType('treasury')).toBe('treasury');
    expect(holdingType('bonds')).toBe('stock');
    expect(holdingType(undefined)).toBe('stock');
  });

  it('maps market codes to holdings types (futures FUTURE, treasury CGI)', () => {
    expect(holdingTypeOfMarket('FUTURE')).toBe('futures');
    expect(holdingTypeOfMarket('CGI')).toBe('treasury');
    expect(holdingTypeOfMarket('forex')).toBe('forex');
    expect(holdingTypeOfMarket('IN')).toBe('stock');
    expect(holdingTypeOfMarket('US')).toBe('stock');
  });
});

describe("a market order's protection", () => {
  const at = (side: 'buy' | 'sell', price: number) => ticksToPrice(protectedLimit(side, priceToTicks(price)));

  it('moves the price 1 % against the user onto whole hundredths: a price the instrument quotes', () => {
    // LTP ₹1,949.60: 1,969.096 is no price; the AMO holds at ₹1,969.10 (never "₹1,969.0960").
    expect(at('buy', 1949.6)).toBe(1969.1);
    expect(at('sell', 1949.6)).toBe(1930.1);
    // A four-decimal instrument: still hundredths, and never less than the tolerance.
    expect(at('buy', 83.1234)).toBe(83.96);
    expect(at('sell', 83.1234)).toBe(82.29);
  });

  it('protects by at least 1 % on either side, and by less than 1 % + a hundredth', () => {
    for (let ticks = 10_000; ticks < 100_000_000; ticks = Math.ceil(ticks * 1.37) + 13) {
      const up = protectedLimit('buy', ticks);
      const down = protectedLimit('sell', ticks);
      expect(up % 100).toBe(0);
      expect(down % 100).toBe(0);
      expect(up * 100).toBeGreaterThanOrEqual(ticks * 101);
      expect(up * 100).toBeLessThan(ticks * 101 + 100 * 100);
      expect(down * 100).toBeLessThanOrEqual(ticks * 99);
      expect(down * 100).toBeGreaterThan(ticks * 99 - 100 * 100);
    }
  });
});
