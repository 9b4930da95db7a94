import {
  Chart as ChartJS,
  type ChartOptions,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
} from 'chart.js';
import { useMemo, useRef } from 'react';
import { Line } from 'react-chartjs-2';
import type { PortfolioPoint } from '../../../shared/contract/portfolio';
import { minorToDisplayNumber, toMinor } from '../../../shared/money';
import { useColourScheme } from '../../../ui/scheme';
import { yRange } from './chartRange';
import s from './portfolio.module.css';

ChartJS.register(LineController, LineElement, PointElement, LinearScale, Filler);

/**
 * The portfolio value line (loaded on its own, so chart.js stays out of Home's first bundle). One
 * neutral colour whatever the direction: the chart shows the path, the figures beside it say how
 * much. Values are drawn from the server's exact amounts converted for display only.
 */
export default function ValueChart({ points }: { points: PortfolioPoint[] }) {
  const box = useRef<HTMLDivElement>(null);
  // The canvas cannot read CSS variables: take the tokens' values again whenever the scheme switches.
  const scheme = useColourScheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scheme changes what the tokens hold
  const colours = useMemo(() => {
    const cs = getComputedStyle(document.documentElement);
    return {
      line: cs.getPropertyValue('--c-primary').trim(),
      fill: cs.getPropertyValue('--c-primary-soft').trim(),
    };
  }, [scheme]);
  const values = useMemo(
    () => points.map((p) => ({ x: p.t, y: minorToDisplayNumber(toMinor(p.total) ?? 0) })),
    [points],
  );
  const data = useMemo(
    () => ({
      datasets: [
        {
          data: values,
          borderColor: colours.line,
          backgroundColor: colours.fill,
          borderWidth: 2,
          fill: true,
          pointRadius: points.length === 1 ? 3 : 0,
          tension: 0.2,
        },
      ],
    }),
    [values, points.length, colours],
  );
  const range = useMemo(() => yRange(values.map((v) => v.y)), [values]);
  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: false,
      events: [],
      plugins: { legend: { display: false }, tooltip: { enabled: false } },
      scales: {
        x: { type: 'linear', display: false },
        y: { type: 'linear', display: false, grace: '5%', ...range },
      },
    }),
    [range],
  );
  return (
    <div ref={box} className={s.chartCanvas} aria-hidden="true">
      <Line data={data} options={options} />
    </div>
  );
}
