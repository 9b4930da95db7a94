import { memo, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { formatChange, formatPrice, trendClass } from '#shared/format';
import { worker } from '../../../src/api/client';
import { useQuote } from '../../../src/api/quotes';
import { type ChartFrame, useChart } from '../../../src/api/useChart';
import { useFavourites } from '../../../src/device/favourites';
import { initI18n } from '../../../src/i18n/index';
import { SESSION_KEY } from '../../../src/store/session';
import { AsOf } from '../../../src/ui/AsOf';
import '../../../src/styles/global.css';

/**
 * A busy screen for `npm run bench:ui`: a watchlist of 50 favourites whose rows re-render on live
 * price deltas, plus a stock chart (candles, MA 5/10/20, volume) redrawn on every frame the worker
 * sends — what the watchlist and stock-detail screens will do, built only from the app-core hooks.
 */
const Row = memo(function Row({ code, name }: { code: string; name: string }) {
  const { quote, stale } = useQuote(code);
  return (
    <li
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        padding: '10px 16px',
        borderBottom: '1px solid var(--c-border)',
      }}
    >
      <span>{name}</span>
      <span className="num">{formatPrice(quote?.price)}</span>
      <span className={`num ${trendClass(quote?.change ?? 0)}`}>{formatChange(quote?.change ?? 0)}</span>
      {stale && <AsOf at={quote?.asOf} stale />}
    </li>
  );
});

function draw(canvas: HTMLCanvasElement, f: ChartFrame): void {
  const ctx = canvas.getContext('2d')!;
  const w = canvas.width;
  const h = canvas.height;
  const priceH = h * 0.75;
  ctx.clearRect(0, 0, w, h);
  const visible = Math.min(f.n, 120);
  const from = f.n - visible;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let vmax = 0;
  for (let i = from; i < f.n; i++) {
    lo = Math.min(lo, f.l[i]!);
    hi = Math.max(hi, f.h[i]!);
    vmax = Math.max(vmax, f.v[i]!);
  }
  const x = (i: number) => ((i - from + 0.5) / visible) * w;
  const y = (p: number) => priceH - ((p - lo) / (hi - lo || 1)) * priceH;
  const bw = Math.max(1, (w / visible) * 0.7);
  for (let i = from; i < f.n; i++) {
    ctx.fillStyle = f.up[i] ? '#057a55' : '#c81e1e';
    ctx.fillRect(x(i), y(f.h[i]!), 1, y(f.l[i]!) - y(f.h[i]!));
    const top = y(Math.max(f.o[i]!, f.c[i]!));
    ctx.fillRect(x(i) - bw / 2, top, bw, Math.max(1, y(Math.min(f.o[i]!, f.c[i]!)) - top));
    ctx.fillRect(
      x(i) - bw / 2,
      h - (f.v[i]! / (vmax || 1)) * (h - priceH),
      bw,
      (f.v[i]! / (vmax || 1)) * (h - priceH),
    );
  }
  for (const [ma, colour] of [
    [f.ma5, '#f59e0b'],
    [f.ma10, '#3b82f6'],
    [f.ma20, '#a855f7'],
  ] as const) {
    ctx.strokeStyle = colour;
    ctx.beginPath();
    let started = false;
    for (let i = from; i < f.n; i++) {
      if (Number.isNaN(ma[i]!)) continue;
      if (started) ctx.lineTo(x(i), y(ma[i]!));
      else ctx.moveTo(x(i), y(ma[i]!));
      started = true;
    }
    ctx.stroke();
  }
}

function Chart({ symbol }: { symbol: string }) {
  const { frame } = useChart(symbol, '1m');
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (frame && ref.current) {
      draw(ref.current, frame);
      const w = window as unknown as { chartFrames?: number };
      w.chartFrames = (w.chartFrames ?? 0) + 1;
    }
  }, [frame]);
  return <canvas ref={ref} width={780} height={480} style={{ width: '100%', height: 240 }} />;
}

function Busy() {
  const { items } = useFavourites(1, 50, 3000);
  return (
    <main>
      <Chart symbol="RELIANCE.NS" />
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-rows={items.length}>
        {items.map((i) => (
          <Row key={i.stock_code} code={i.stock_code} name={i.stock_name} />
        ))}
      </ul>
    </main>
  );
}

async function start(): Promise<void> {
  await initI18n('all');
  const session = JSON.parse(localStorage.getItem(SESSION_KEY) ?? '{}').state ?? {};
  await worker().setToken(session.token ?? null, session.userInfo?.id ?? null);
  createRoot(document.getElementById('root')!).render(<Busy />);
}

void start();
