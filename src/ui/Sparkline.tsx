import { useLowData } from '../api/connection';
import { useSparkline } from '../api/sparkline';
import { SPARK_VIEWBOX, trendClass } from '../shared/format';
import s from './core.module.css';

/**
 * A card's sparkline (index cards, watchlist rows, the widget): the worker draws the paths; this
 * only places them. Colour follows `trend` (up/down tokens), so it never carries meaning alone.
 */
export function Sparkline({
  values,
  trend = 0,
  width = 96,
  height = 32,
  area = true,
}: {
  values: number[] | null | undefined;
  trend?: number;
  width?: number | string;
  height?: number | string;
  area?: boolean;
}) {
  // Low-data mode: the box stays (no layout shift), the line is not drawn.
  const lowData = useLowData();
  const paths = useSparkline(lowData ? null : values);
  return (
    <svg
      className={`${s.spark} ${trendClass(trend)}`}
      viewBox={SPARK_VIEWBOX}
      preserveAspectRatio="none"
      width={width}
      height={height}
      aria-hidden="true"
      focusable="false"
    >
      {paths && area && <path className={s.sparkArea} d={paths.area} />}
      {paths && <path className={s.sparkLine} d={paths.line} />}
    </svg>
  );
}
