import { describe, expect, it } from 'vitest';
import { yRange } from '../../src/screens/_parts/portfolio/chartRange';

/** The portfolio value chart's axis: a small move draws small, a real move fills the chart. */
describe('portfolio chart axis', () => {
  it('draws a ₹6 change on ₹10 lakh as a flat line in a 2 % band around it', () => {
    const r = yRange([1_000_000, 999_994]);
    expect(r.max! - r.min!).toBeCloseTo(20_000, 6);
    expect((r.max! + r.min!) / 2).toBe(999_997);
  });

  it('leaves a move larger than 2 % to chart.js', () => {
    expect(yRange([1_000_000, 960_000])).toEqual({});
  });

  it('leaves an empty or all-zero history alone', () => {
    expect(yRange([])).toEqual({});
    expect(yRange([0, 0])).toEqual({});
  });
});
