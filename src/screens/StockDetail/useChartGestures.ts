import type { Chart as ChartInstance } from 'chart.js';
import { type RefObject, useEffect } from 'react';
import type { ChartFrame } from '../../api/useChart';
import { limitsFor, type Mode } from './chartDraw';
import {
  type ChartWindow,
  candleAt,
  type Gesture,
  gestureOf,
  panWindow,
  stepCrosshair,
  zoomWindow,
} from './chartWindow';

/** What the chart shares with its gestures: all refs, read when an event comes. */
export interface ChartRefs {
  box: RefObject<HTMLDivElement | null>;
  chart: RefObject<ChartInstance<'line'> | null>;
  /** The candles in view. */
  win: RefObject<ChartWindow>;
  shown: RefObject<{ frame: ChartFrame | null; mode: Mode | null }>;
  /** The crosshair's candle (null: none). */
  cross: RefObject<{ index: number | null }>;
}

/**
 * The chart's input: a drag pans or scrubs (see `gestureOf`: the first movement past the slop
 * decides, no timer), two fingers pinch, the wheel zooms, the keyboard moves the crosshair, pans
 * and zooms. Each moves the window in place and asks for a redraw (`schedule`); the crosshair goes
 * through `setCross`.
 */
export function useChartGestures(
  { box, chart: chartRef, win, shown, cross }: ChartRefs,
  setCross: (index: number | null) => void,
  schedule: () => void,
): void {
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const pointers = new Map<number, number>();
    let spread = 0;
    /** The one finger's gesture, decided by its first movement past the slop. */
    let gesture: Gesture | null = null;
    let origin = { x: 0, y: 0 };
    const n = () => shown.current.frame?.n ?? 0;
    const limits = () => limitsFor(shown.current.mode ?? 'candles', n());
    const perCandle = () => {
      const area = chartRef.current?.chartArea;
      return area ? area.width / Math.max(1, win.current.end - win.current.start) : 1;
    };
    const anchorAt = (clientX: number) => {
      const area = chartRef.current?.chartArea;
      if (!area) return 1;
      return (clientX - el.getBoundingClientRect().left - area.left) / area.width;
    };
    const candleUnder = (clientX: number) => candleAt(win.current, n(), anchorAt(clientX));
    const distance = () => {
      const [a, b] = [...pointers.values()];
      return Math.abs((a ?? 0) - (b ?? 0));
    };
    const down = (e: PointerEvent) => {
      try {
        el.setPointerCapture(e.pointerId);
      } catch {
        // The pointer is already gone (released between events): follow it without capture.
      }
      pointers.set(e.pointerId, e.clientX);
      if (pointers.size === 1) {
        gesture = 'pending';
        origin = { x: e.clientX, y: e.clientY };
        setCross(candleUnder(e.clientX));
      } else {
        // A second finger: a pinch, never a scrub.
        gesture = 'pan';
        setCross(null);
      }
      if (pointers.size === 2) spread = distance();
    };
    const move = (e: PointerEvent) => {
      const before = pointers.get(e.pointerId);
      if (before === undefined) return;
      if (pointers.size === 1 && gesture === 'pending') {
        gesture = gestureOf(e.clientX - origin.x, e.clientY - origin.y);
        // Still deciding: the crosshair stays with the finger, the chart does not move yet.
        if (gesture === 'pending') return setCross(candleUnder(e.clientX));
        // A pan starts from where the finger came down, so it moves the whole way the finger did.
        if (gesture === 'pan') setCross(null);
      }
      pointers.set(e.pointerId, e.clientX);
      if (pointers.size === 1 && gesture === 'scrub') return setCross(candleUnder(e.clientX));
      if (pointers.size === 1) {
        win.current = panWindow(win.current, (before - e.clientX) / perCandle(), n());
      } else if (pointers.size === 2) {
        const next = distance();
        if (spread > 0 && next > 0) {
          const [a, b] = [...pointers.values()];
          const { min, max } = limits();
          win.current = zoomWindow(
            win.current,
            spread / next,
            anchorAt(((a ?? 0) + (b ?? 0)) / 2),
            n(),
            min,
            max,
          );
        }
        spread = next;
      }
      schedule();
    };
    const up = (e: PointerEvent) => {
      pointers.delete(e.pointerId);
      spread = pointers.size === 2 ? distance() : 0;
      if (pointers.size === 0) {
        gesture = null;
        setCross(null);
      }
    };
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const { min, max } = limits();
      win.current = zoomWindow(
        win.current,
        e.deltaY > 0 ? 1.15 : 1 / 1.15,
        anchorAt(e.clientX),
        n(),
        min,
        max,
      );
      schedule();
    };
    const key = (e: KeyboardEvent) => {
      const size = win.current.end - win.current.start;
      const { min, max } = limits();
      const arrow = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
      if (arrow !== 0 && !e.shiftKey) {
        // The arrows move the crosshair a candle at a time; the chart follows it past either edge.
        const next = stepCrosshair(win.current, n(), cross.current.index, arrow);
        win.current = next.window;
        setCross(next.index);
      } else if (arrow !== 0) win.current = panWindow(win.current, (arrow * size) / 10, n());
      else if (e.key === 'Escape' && cross.current.index !== null) setCross(null);
      else if (e.key === '+' || e.key === '=')
        win.current = zoomWindow(win.current, 1 / 1.25, 0.5, n(), min, max);
      else if (e.key === '-') win.current = zoomWindow(win.current, 1.25, 0.5, n(), min, max);
      else return;
      e.preventDefault();
      schedule();
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    el.addEventListener('wheel', wheel, { passive: false });
    el.addEventListener('keydown', key);
    const blur = () => {
      if (pointers.size === 0) setCross(null);
    };
    el.addEventListener('blur', blur);
    return () => {
      el.removeEventListener('blur', blur);
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      el.removeEventListener('wheel', wheel);
      el.removeEventListener('keydown', key);
    };
  }, [box, chartRef, win, shown, cross, schedule, setCross]);
}
