import { transfer } from 'comlink';
import type { Period } from '#shared/contract/market';
import { type SparkPaths, sparkPaths } from '../chart';
import type { ChartUpdate } from '../charts';
import { release } from '../events';
import type { Context } from './context';

/** The charts domain: live candle charts and sparkline paths. */
export function chartsApi(ctx: Context) {
  return {
    /** A live chart; frames arrive through `cb` with their arrays transferred. Ended by `unlisten`. */
    watchChart(
      symbol: string,
      period: Period,
      market: string | undefined,
      cb: (u: ChartUpdate) => void,
    ): number {
      const chartId = ctx.charts.watch(symbol, period, market, (u) =>
        u.frame ? cb(transfer(u, [u.frame.buffer])) : cb(u),
      );
      return ctx.events.track(() => {
        ctx.charts.unwatch(chartId);
        release(cb);
      });
    },
    /** Sparkline paths (SPARK_VIEWBOX) for several series at once. */
    sparklines(series: number[][]): SparkPaths[] {
      return series.map((values) => sparkPaths(values));
    },
  };
}
