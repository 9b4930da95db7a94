import { describe, expect, it } from 'vitest';
import { formatQuantity, formatVolume, regionUnit } from '#shared/format';

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
