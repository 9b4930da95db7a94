import { proxy } from 'comlink';
import { useEffect, useState } from 'react';
import type { ChartFrame, ChartUpdate } from '../../workers/charts';
import type { Period } from '../shared/contract/market';
import { subscription, worker } from './client';
import { useOnline } from './connection';

export type { ChartFrame } from '../../workers/charts';

export interface ChartView {
  /** Chart-ready arrays (t, o, h, l, c, v, ma5, ma10, ma20, avg, up), extents and the close sparkline. */
  frame: ChartFrame | null;
  /** i18n key of the last failed refresh. */
  error: string | null;
  loading: boolean;
  /** From the device, rolled up offline, failing or offline: show `<AsOf at={frame.asOf} stale />`. */
  stale: boolean;
}

/**
 * A live chart of `symbol` for one period (SPEC §2 stock detail: 1m timeline, 1d, 1wk, 1mo).
 * The worker polls, moves the last bar with live prices, does all the math and transfers the
 * arrays; this hook only holds the latest frame. The worker's callback is released on unmount.
 */
export function useChart(symbol: string | null, period: Period, market?: string): ChartView {
  const [state, setState] = useState<{ frame: ChartFrame | null; error: string | null; loading: boolean }>({
    frame: null,
    error: null,
    loading: true,
  });
  const online = useOnline();

  useEffect(() => {
    if (!symbol) return;
    let alive = true;
    setState({ frame: null, error: null, loading: true });
    const cb = proxy((u: ChartUpdate) => {
      if (!alive) return;
      setState((s) =>
        u.frame ? { frame: u.frame, error: null, loading: false } : { ...s, error: u.error, loading: false },
      );
    });
    const end = subscription(() => worker().watchChart(symbol, period, market, cb));
    return () => {
      alive = false;
      end();
    };
  }, [symbol, period, market]);

  const f = state.frame;
  const stale = f !== null && (f.source === 'device' || f.derived || state.error !== null || !online);
  return { ...state, stale };
}
