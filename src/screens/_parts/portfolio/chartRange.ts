/**
 * The least height of the value axis, as a share of the value: a move smaller than this draws as
 * the small move it is. Scaled to its own range, a ₹6 change on ₹10 lakh would fill the chart top
 * to bottom and read as a crash.
 */
const MIN_SPAN = 0.02;

/** The axis's bounds when the values' own range is under MIN_SPAN of them; chart.js's own otherwise. */
export function yRange(ys: number[]): { min?: number; max?: number } {
  if (ys.length === 0) return {};
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const span = Math.max(Math.abs(lo), Math.abs(hi)) * MIN_SPAN;
  if (hi - lo >= span || span === 0) return {};
  const mid = (lo + hi) / 2;
  return { min: mid - span / 2, max: mid + span / 2 };
}
