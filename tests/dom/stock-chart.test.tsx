import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { forwardRef, useImperativeHandle } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChartFrame } from '../../src/api/useChart';
import { initI18n } from '../../src/i18n/index';
import { StockChart } from '../../src/screens/StockDetail/StockChart';
import { computeChart, toColumns } from '../../workers/chart';

/**
 * The stock detail chart's gestures: a finger held on the chart shows the crosshair, a
 * drag that starts up or down scrubs it across the candles, a sideways drag pans (the crosshair
 * goes), lifting ends it; the arrow keys move it. No timer takes part: the test drives pointer
 * events and runs the chart's animation frames itself. happy-dom has no canvas, so chart.js is
 * replaced by a chart whose plot is 0–300 px wide.
 */
const WIDTH = 300;
vi.mock('react-chartjs-2', () => ({
  Chart: forwardRef(function FakeChart(_props: unknown, ref) {
    useImperativeHandle(ref, () => ({
      chartArea: { left: 0, right: WIDTH, top: 0, bottom: 200, width: WIDTH, height: 200 },
      options: { scales: { x: {}, y: {}, volume: {} } },
      data: { datasets: [] },
      update: () => {},
    }));
    return <canvas />;
  }),
}));

let frames: FrameRequestCallback[] = [];
/** Runs the chart's pending redraw (what the next animation frame would do). */
const flush = () =>
  act(() => {
    const run = frames;
    frames = [];
    for (const f of run) f(0);
  });

function frame(n: number): ChartFrame {
  const rows = Array.from({ length: n }, (_, i) => {
    const close = 100 + i;
    return {
      timestamp: i * 86_400_000,
      open: close - 1,
      high: close + 1,
      low: close - 2,
      close,
      volume: 10,
      change: 1,
    };
  });
  return {
    ...computeChart(toColumns(rows)),
    symbol: 'TCS.NS',
    period: '1d',
    name: 'TCS',
    decimals: 2,
    asOf: 0,
    source: 'network',
    derived: false,
    last: null,
  };
}

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  vi.stubGlobal('cancelAnimationFrame', () => {});
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function setup(n = 1000) {
  const crosses: Array<number | null> = [];
  const view = render(
    <StockChart frame={frame(n)} period="1d" label="TCS" hours="NSE" onCross={(i) => crosses.push(i)} />,
  );
  const box = view.getByRole('img');
  flush();
  const pointer = (type: string, x: number, y: number) =>
    act(
      () =>
        void fireEvent(box, new PointerEvent(type, { pointerId: 1, clientX: x, clientY: y, bubbles: true })),
    );
  return { box, crosses, pointer };
}

describe('stock chart crosshair', () => {
  it('a finger held on the chart inspects the candle under it; up or down first scrubs; lifting ends it', () => {
    const { box, crosses, pointer } = setup();
    // The newest 200 candles (800–999) across 300 px: 1.5 px each.
    expect(box.dataset.from).toBe('800');
    pointer('pointerdown', 30, 100);
    expect(box.dataset.cross).toBe('820');
    expect(crosses).toEqual([820]);
    // Within the slop: still deciding, nothing pans.
    pointer('pointermove', 33, 104);
    expect(box.dataset.cross).toBe('822');
    // Down first: a scrub. Then sideways, the crosshair follows the finger; the window stays.
    pointer('pointermove', 33, 130);
    pointer('pointermove', 150, 130);
    expect(box.dataset.cross).toBe('900');
    pointer('pointermove', 299, 60);
    expect(box.dataset.cross).toBe('999');
    flush();
    expect(box.dataset.from).toBe('800');
    pointer('pointerup', 299, 60);
    expect(box.dataset.cross).toBeUndefined();
    expect(crosses.at(-1)).toBeNull();
  });

  it('a sideways drag pans the chart the whole way the finger went, and the crosshair goes', () => {
    const { box, crosses, pointer } = setup();
    pointer('pointerdown', 100, 100);
    expect(box.dataset.cross).toBe('866');
    pointer('pointermove', 130, 102);
    expect(box.dataset.cross).toBeUndefined();
    pointer('pointermove', 250, 102);
    flush();
    // 150 px at 1.5 px a candle: 100 candles older.
    expect(box.dataset.from).toBe('700');
    pointer('pointerup', 250, 102);
    expect(crosses).toEqual([866, null]);
  });

  it('the arrow keys move the crosshair a candle at a time, Shift and the arrows pan, Escape ends it', () => {
    const { box, crosses } = setup(300);
    const key = (k: string, shift = false) =>
      act(() => void fireEvent.keyDown(box, { key: k, shiftKey: shift }));
    key('ArrowLeft');
    expect(box.dataset.cross).toBe('299');
    key('ArrowLeft');
    key('ArrowLeft');
    expect(box.dataset.cross).toBe('297');
    key('ArrowRight');
    expect(box.dataset.cross).toBe('298');
    key('ArrowLeft', true);
    flush();
    expect(box.dataset.from).toBe('80');
    expect(box.dataset.cross).toBe('298');
    key('Escape');
    expect(box.dataset.cross).toBeUndefined();
    expect(crosses).toEqual([299, 298, 297, 298, null]);
  });
});
