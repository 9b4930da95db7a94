import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNearEnd } from '../../src/screens/_parts/market/nearEnd';
import {
  candleAt,
  candleScrub,
  clampWindow,
  followData,
  GESTURE_SLOP,
  gestureOf,
  initialWindow,
  MAX_VISIBLE,
  MIN_VISIBLE,
  panWindow,
  stepCrosshair,
  VISIBLE_CANDLES,
  visibleRange,
  windowExtent,
  zoomWindow,
} from '../../src/screens/StockDetail/chartWindow';

const size = (w: { start: number; end: number }) => w.end - w.start;

describe('chart window', () => {
  it('starts on the newest 200 candles, or all when fewer', () => {
    expect(initialWindow(1300)).toEqual({ start: 1100, end: 1300 });
    expect(initialWindow(50)).toEqual({ start: 0, end: 50 });
    expect(initialWindow(0)).toEqual({ start: 0, end: 0 });
    expect(VISIBLE_CANDLES).toBe(200);
  });

  it('pans by candles and stops at both ends without changing size', () => {
    const w = initialWindow(1000);
    expect(panWindow(w, -50, 1000)).toEqual({ start: 750, end: 950 });
    expect(panWindow(w, 30, 1000)).toEqual(w);
    expect(panWindow(w, -5000, 1000)).toEqual({ start: 0, end: 200 });
    expect(panWindow({ start: 10, end: 210 }, 2.5, 1000)).toEqual({ start: 12.5, end: 212.5 });
  });

  it('zooms around the anchor and keeps the size between the limits', () => {
    const w = { start: 800, end: 1000 };
    // Zooming in at the right edge keeps the newest candle in place.
    expect(zoomWindow(w, 0.5, 1, 1000)).toEqual({ start: 900, end: 1000 });
    // Zooming in at the middle keeps the middle candle in the middle.
    const mid = zoomWindow(w, 0.5, 0.5, 1000);
    expect(mid).toEqual({ start: 850, end: 950 });
    expect(size(zoomWindow(w, 0.01, 0.5, 1000))).toBe(MIN_VISIBLE);
    expect(size(zoomWindow(w, 10, 0.5, 1000))).toBe(MAX_VISIBLE);
    expect(size(zoomWindow(w, 10, 0.5, 120))).toBe(120);
  });

  it('any sequence of pans and zooms stays inside the data and near 200 candles', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(
          fc.oneof(
            fc.record({ pan: fc.double({ min: -3000, max: 3000, noNaN: true }) }),
            fc.record({
              zoom: fc.double({ min: 0.05, max: 20, noNaN: true }),
              anchor: fc.double({ min: -1, max: 2, noNaN: true }),
            }),
          ),
          { maxLength: 30 },
        ),
        (n, ops) => {
          let w = initialWindow(n);
          for (const op of ops) {
            w = 'pan' in op ? panWindow(w, op.pan, n) : zoomWindow(w, op.zoom, op.anchor, n);
            expect(w.start).toBeGreaterThanOrEqual(0);
            expect(w.end).toBeLessThanOrEqual(n + 1e-9);
            expect(size(w)).toBeLessThanOrEqual(Math.min(n, MAX_VISIBLE) + 1e-9);
            expect(size(w)).toBeGreaterThanOrEqual(Math.min(n, MIN_VISIBLE) - 1e-9);
          }
        },
      ),
    );
  });

  it('follows new candles at the live edge and stays put in the past', () => {
    expect(followData({ start: 800, end: 1000 }, 1000, 1001)).toEqual({ start: 801, end: 1001 });
    expect(followData({ start: 300, end: 500 }, 1000, 1001)).toEqual({ start: 300, end: 500 });
    expect(followData({ start: 0, end: 0 }, 0, 400)).toEqual(initialWindow(400));
    // Fewer candles than before (another range): pulled back inside.
    expect(followData({ start: 800, end: 1000 }, 1000, 500)).toEqual({ start: 300, end: 500 });
  });

  it('clamps an impossible window into the data', () => {
    expect(clampWindow({ start: -10, end: 5 }, 100)).toEqual({ start: 0, end: MIN_VISIBLE });
    expect(clampWindow({ start: 90, end: 400 }, 100)).toEqual({ start: 0, end: 100 });
    expect(clampWindow({ start: 5, end: 9 }, 0)).toEqual({ start: 0, end: 0 });
  });

  it('lists the candles partly in view', () => {
    expect(visibleRange({ start: 10.5, end: 20.2 }, 100)).toEqual({ from: 10, to: 21 });
    expect(visibleRange({ start: 90, end: 120 }, 100)).toEqual({ from: 90, to: 100 });
  });

  it('fits the price axis to the candles and lines in view, padded', () => {
    const l = Float64Array.from([1, 5, 9, 2]);
    const h = Float64Array.from([3, 8, 12, 4]);
    const v = Float64Array.from([10, 50, 20, 99]);
    const ma = Float64Array.from([Number.NaN, 7, 13, 3]);
    const e = windowExtent({ l, h, v }, { start: 1, end: 3 }, 4, [ma], 0);
    expect(e).toEqual({ min: 5, max: 13, volumeMax: 50 });
    const padded = windowExtent({ l, h, v }, { start: 1, end: 3 }, 4, [], 0.1);
    expect(padded.min).toBeCloseTo(4.3);
    expect(padded.max).toBeCloseTo(12.7);
    // A flat window still gets a visible range.
    const flat = windowExtent({ l: [5, 5], h: [5, 5], v: [0, 0] }, { start: 0, end: 2 }, 2, [], 0);
    expect(flat.max).toBeGreaterThan(flat.min);
    expect(flat.volumeMax).toBe(1);
  });
});

describe('infinite scroll threshold', () => {
  it('loads when the end is within 50 px of the visible bottom', () => {
    expect(isNearEnd(900, 844)).toBe(false);
    expect(isNearEnd(894, 844)).toBe(true);
    expect(isNearEnd(895, 844)).toBe(false);
    expect(isNearEnd(500, 844)).toBe(true);
  });
});

describe('crosshair', () => {
  it('decides a drag by its first movement past the slop, never by time: sideways pans, up or down scrubs', () => {
    expect(gestureOf(0, 0)).toBe('pending');
    expect(gestureOf(GESTURE_SLOP, -GESTURE_SLOP)).toBe('pending');
    expect(gestureOf(GESTURE_SLOP + 1, 3)).toBe('pan');
    expect(gestureOf(-40, 39)).toBe('pan');
    expect(gestureOf(3, GESTURE_SLOP + 1)).toBe('scrub');
    expect(gestureOf(-20, -21)).toBe('scrub');
    // The e2e pan: a mouse drag of about 22 px a step, straight across.
    expect(gestureOf(22, 0)).toBe('pan');
  });

  it('finds the candle under a point of the plot, within the candles in view', () => {
    const w = { start: 100, end: 300 };
    expect(candleAt(w, 1000, 0)).toBe(100);
    expect(candleAt(w, 1000, 0.5)).toBe(200);
    expect(candleAt(w, 1000, 1)).toBe(299);
    expect(candleAt(w, 1000, -3)).toBe(100);
    expect(candleAt(w, 1000, 7)).toBe(299);
    expect(candleAt({ start: 0, end: 50 }, 30, 0.99)).toBe(29);
    expect(candleAt({ start: 0, end: 0 }, 0, 0.5)).toBeNull();
  });

  it('moves with the arrow keys from the newest candle in view, the window following it', () => {
    const w = { start: 800, end: 1000 };
    const first = stepCrosshair(w, 1000, null, -1);
    expect(first).toEqual({ index: 999, window: w });
    expect(stepCrosshair(w, 1000, 999, 1)).toEqual({ index: 999, window: w });
    expect(stepCrosshair(w, 1000, 900, 1)).toEqual({ index: 901, window: w });
    // A crosshair left out of view (the chart panned away from it) brings the window back to it.
    expect(stepCrosshair(w, 1000, 500, 1)).toEqual({ index: 501, window: { start: 501, end: 701 } });
    expect(stepCrosshair(w, 1000, 800, -1)).toEqual({ index: 799, window: { start: 799, end: 999 } });
    expect(stepCrosshair({ start: 0, end: 200 }, 1000, 0, -1)).toEqual({
      index: 0,
      window: { start: 0, end: 200 },
    });
    expect(stepCrosshair({ start: 600, end: 800 }, 1000, 800, 1)).toEqual({
      index: 801,
      window: { start: 602, end: 802 },
    });
    expect(stepCrosshair(w, 0, null, 1)).toEqual({ index: null, window: w });
  });

  it('keeps the crosshair and its window inside the data whatever the keys', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.array(fc.constantFrom(-1, 1), { maxLength: 300 }),
        (n, keys) => {
          let w = initialWindow(n);
          let index: number | null = null;
          for (const k of keys) {
            const next = stepCrosshair(w, n, index, k);
            w = next.window;
            index = next.index;
            expect(index).not.toBeNull();
            expect(index!).toBeGreaterThanOrEqual(0);
            expect(index!).toBeLessThan(n);
            expect(index!).toBeGreaterThanOrEqual(Math.floor(w.start));
            expect(index!).toBeLessThan(Math.ceil(w.end));
            expect(size(w)).toBeCloseTo(Math.min(n, VISIBLE_CANDLES), 6);
          }
        },
      ),
    );
  });

  it("shows a candle's close and its change from the close before (minute bars: from the session's reference)", () => {
    const frame = { n: 3, o: [10, 11, 12], c: [10.5, 11, 9.9] };
    expect(candleScrub(frame, 0)).toEqual({ price: 10.5, change: 0.5, percent: 5 });
    expect(candleScrub(frame, 1)).toMatchObject({ price: 11, change: 0.5 });
    expect(candleScrub(frame, 2)!.change).toBeCloseTo(-1.1, 10);
    expect(candleScrub(frame, 2)!.percent).toBeCloseTo(-10, 10);
    expect(candleScrub(frame, 2, 10)!.change).toBeCloseTo(-0.1, 10);
    expect(candleScrub(frame, 3)).toBeNull();
    expect(candleScrub(frame, -1)).toBeNull();
  });
});
