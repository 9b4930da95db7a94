import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { type ChartFrame, useChart } from '../../api/useChart';
import { PATHS, tradingPath } from '../../paths';
import type { Period } from '../../shared/contract/market';
import {
  formatAxisTime,
  formatChange,
  formatDate,
  formatExchangeTime,
  formatPercent,
  formatPrice,
  formatVolume,
  regionUnit,
  trendClass,
} from '../../shared/format';
import { type ScheduleId, scheduleOf } from '../../shared/market-hours';
import { displayCode } from '../../shared/rules';
import { SimulatedMark } from '../../shell/SimulatedMark';
import {
  AsOf,
  Button,
  IconBell,
  IconButton,
  IconStar,
  ListStates,
  LoadError,
  PageHeader,
  Skeleton,
  Tabs,
  ui,
} from '../../ui';
import { DepthLadder } from '../_parts/market/DepthLadder';
import { InstrumentFacts, MarketStatusChip } from '../_parts/market/InstrumentFacts';
import { StockListRow } from '../_parts/market/InstrumentRow';
import m from '../_parts/market/market.module.css';
import { AlertDialog } from '../_parts/watchlist/AlertDialog';
import { MA_COLOURS } from './chartDraw';
import { candleScrub } from './chartWindow';
import { StockChart } from './StockChart';
import s from './stock.module.css';
import { useStockDetail } from './useStockDetail';

const PERIODS: Array<{ value: Period; key: string }> = [
  { value: '1m', key: 'markets.detail.period.realtime' },
  { value: '1d', key: 'markets.detail.period.day' },
  { value: '1wk', key: 'markets.detail.period.week' },
  { value: '1mo', key: 'markets.detail.period.month' },
];

/** Stock detail (SPEC §2): price, open/high/low/previous close, the chart in four periods, star, Buy and Sell. */
export default function StockDetailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { symbol, routeMarket, market, name, head, live, favourite, sameMarket } = useStockDetail();
  const [period, setPeriod] = useState<Period>('1d');
  const [alerting, setAlerting] = useState(false);
  // While a finger scrubs the chart, the header shows that candle's values.
  const [scrub, setScrub] = useState<Scrub | null>(null);
  const tabsId = useId();
  const q = head.data;
  const decimals = q?.decimals ?? live?.decimals ?? 2;
  const price = live?.source === 'network' ? live.price : (q?.price ?? live?.price);
  const change = live?.source === 'network' && live.change !== undefined ? live.change : q?.change;
  const percent = live?.source === 'network' && live.percent !== undefined ? live.percent : q?.changePercent;
  const shownPrice = scrub?.price ?? price;
  const shownChange = scrub?.change ?? change;
  const shownPercent = scrub?.percent ?? percent;
  const tone = shownChange === undefined ? '' : trendClass(shownChange);
  const tradable = market !== undefined && market !== 'INDEX';
  const others = sameMarket.data?.rows.filter((r) => r.stock !== symbol);

  return (
    <main className={`${ui.page} ${tradable ? s.withActions : ''}`}>
      <PageHeader
        back={PATHS.markets}
        title={
          <span className={s.title}>
            <span className={`${ui.name} ${s.titleName}`}>{name}</span>
            <span className={s.titleCode}>{displayCode(symbol)}</span>
          </span>
        }
        actions={
          <span className={s.star}>
            <IconButton
              label={t('watch.alerts.fromDetail')}
              onClick={() => setAlerting(true)}
              data-testid="alert"
            >
              <IconBell />
            </IconButton>
            <IconButton
              label={t(favourite.on ? 'core.favourite.remove' : 'core.favourite.add')}
              aria-pressed={favourite.on === true}
              disabled={favourite.on === undefined}
              onClick={favourite.toggle}
              data-testid="favourite"
            >
              <IconStar />
            </IconButton>
          </span>
        }
      />

      <section className={s.head} aria-label={t('markets.detail.quote')}>
        <div className={s.priceLine}>
          <span className={`${s.price} num ${tone}`} data-testid="price" data-scrub={scrub ? '1' : undefined}>
            {shownPrice === undefined ? (
              head.error ? (
                '—'
              ) : (
                <Skeleton width={140} height={34} />
              )
            ) : (
              formatPrice(shownPrice, decimals)
            )}
          </span>
          {shownChange !== undefined && shownPercent !== undefined && (
            <span className={`${s.change} num ${tone}`}>
              {formatChange(shownChange, decimals)} {formatPercent(shownPercent)}
            </span>
          )}
          {/* Announced as the crosshair moves (arrow keys); empty while the header is live. */}
          <span className={s.scrubTime} data-testid="scrub-time" aria-live="polite">
            {scrub?.label}
          </span>
        </div>
        <div className={s.marks}>
          <MarketStatusChip market={q?.market ?? market} region={q?.region} />
          <SimulatedMark />
          {favourite.pending && <span className={s.pending}>{t('core.favourite.pending')}</span>}
          {(q || live) && (
            <AsOf
              at={live?.asOf ?? q?.as_of}
              fetchedAt={head.updatedAt}
              // Without this session's quote the price is the device's last known one.
              stale={head.stale || (!q && live?.source !== 'network')}
              every={head.intervalMs}
              schedule={scheduleOf(q?.market ?? market, q?.region)}
            />
          )}
        </div>
        {head.error && !q ? (
          <LoadError error={head.error} onRetry={head.reload} />
        ) : (
          <dl className={s.stats}>
            <Stat label={t('markets.detail.open')} value={q && formatPrice(q.open, decimals)} />
            <Stat label={t('markets.detail.high')} value={q && formatPrice(q.high, decimals)} />
            <Stat label={t('markets.detail.low')} value={q && formatPrice(q.low, decimals)} />
            <Stat label={t('markets.detail.prevClose')} value={q && formatPrice(q.prev_close, decimals)} />
            <Stat
              label={t('markets.detail.volume')}
              value={q && formatVolume(q.volume, regionUnit(q.region))}
            />
            <Stat label={t('markets.detail.exchange')} value={q?.exchange_name} />
          </dl>
        )}
        <InstrumentFacts symbol={symbol} price={price} low={q?.low} high={q?.high} decimals={decimals} />
      </section>

      {tradable && <DepthLadder symbol={symbol} />}

      <section className={s.chartCard} aria-label={t('markets.detail.chart')}>
        <Tabs
          id={tabsId}
          label={t('markets.detail.periods')}
          value={period}
          onChange={setPeriod}
          items={PERIODS.map((p) => ({ value: p.value, label: t(p.key) }))}
        />
        <div role="tabpanel" aria-labelledby={`${tabsId}-${period}`}>
          <ChartPanel
            symbol={symbol}
            period={period}
            market={routeMarket}
            name={name}
            prevClose={q?.prev_close}
            schedule={scheduleOf(q?.market ?? market, q?.region)}
            onScrub={setScrub}
          />
        </div>
      </section>

      {routeMarket && (
        <section className={s.same} aria-labelledby="same-market">
          <h2 id="same-market" className={`${ui.sectionTitle} ${m.listTitle}`}>
            {t('markets.detail.sameMarket')}
          </h2>
          <ListStates
            rows={others}
            error={sameMarket.error}
            onRetry={sameMarket.reload}
            loading={<Skeleton height={180} />}
            // The only stock of its market: the title stands over no rows, as before.
            empty={null}
          >
            {(rows) => (
              <ul className={`${ui.plainList} ${m.rows}`} aria-labelledby="same-market">
                {rows.map((row) => (
                  <StockListRow key={row.stock} row={row} />
                ))}
              </ul>
            )}
          </ListStates>
        </section>
      )}

      <AlertDialog target={alerting ? { symbol, name } : null} onClose={() => setAlerting(false)} />

      {tradable && (
        <div className={s.actions} data-bottom-bar="">
          <Button variant="buy" block onClick={() => navigate(tradingPath(symbol, market, name, 'buy'))}>
            {t('markets.detail.buy')}
          </Button>
          <Button variant="sell" block onClick={() => navigate(tradingPath(symbol, market, name, 'sell'))}>
            {t('markets.detail.sell')}
          </Button>
        </div>
      )}
    </main>
  );
}

function Stat({ label, value }: { label: string; value: string | undefined }) {
  return (
    <div className={s.stat}>
      <dt>{label}</dt>
      <dd className="num">{value ?? <Skeleton width={56} height={16} />}</dd>
    </div>
  );
}

/** A scrubbed candle's values for the header: its close, the change from the candle before, when. */
interface Scrub {
  price: number;
  change: number;
  percent: number;
  label: string;
}

/**
 * When a scrubbed bar was, in its exchange's time: the minute with its date ("24/11/2026, 09:15
 * IST"), the day, or the month of a monthly bar.
 */
function barTime(ms: number, period: Period, language: string, schedule: ScheduleId): string {
  if (period === '1m') return formatExchangeTime(ms, schedule, 'dateTime', language);
  if (period === '1mo') return formatAxisTime(ms, 'month', language, schedule);
  return formatDate(ms, language, schedule);
}

interface ChartProps {
  symbol: string;
  period: Period;
  market?: string;
  name: string;
  /** The session's reference for the minute bars' change (the header's own). */
  prevClose?: number;
  /** The instrument's market hours: its bars' times are told in its exchange's zone. */
  schedule: ScheduleId;
  onScrub: (scrub: Scrub | null) => void;
}

/**
 * The chart of one period. While another period loads the previous chart stays (same canvas,
 * updated in place when the new frame arrives). Retry re-subscribes from scratch.
 */
function ChartPanel(props: ChartProps) {
  const [attempt, setAttempt] = useState(0);
  return <ChartView key={attempt} {...props} retry={() => setAttempt((a) => a + 1)} />;
}

function ChartView({
  symbol,
  period,
  market,
  name,
  prevClose,
  schedule,
  onScrub,
  retry,
}: ChartProps & { retry: () => void }) {
  const { t, i18n } = useTranslation();
  const { frame, error, loading, stale } = useChart(symbol || null, period, market);
  const last = useRef<ChartFrame | null>(null);
  if (frame) last.current = frame;
  const shown = frame ?? (last.current?.symbol === symbol ? last.current : null);
  const periodLabel = t(PERIODS.find((p) => p.value === period)!.key);
  // The crosshair's candle (StockChart); the header and the OHLC line show it while it is there.
  const [cross, setCross] = useState<number | null>(null);
  const inspected = shown && cross !== null && cross < shown.n ? cross : null;
  const language = i18n.language;
  useEffect(() => {
    if (!shown || inspected === null) return onScrub(null);
    const values = candleScrub(shown, inspected, shown.period === '1m' ? prevClose : undefined);
    onScrub(values && { ...values, label: barTime(shown.t[inspected]!, shown.period, language, schedule) });
  }, [shown, inspected, prevClose, language, schedule, onScrub]);
  useEffect(() => () => onScrub(null), [onScrub]);

  if (!shown) {
    if (error && !loading) return <LoadError error={error} onRetry={retry} />;
    return (
      <div className={s.chartSkeleton} role="status" aria-label={t('common.loading')}>
        <Skeleton height="100%" />
      </div>
    );
  }
  const i = inspected ?? shown.n - 1;
  const timeline = shown.period === '1m';
  const d = shown.decimals;
  return (
    <figure className={s.figure} data-ready={frame ? '1' : undefined} aria-busy={frame === null || undefined}>
      <figcaption className={s.legend} data-ma="5,10,20">
        {timeline ? (
          <>
            <LegendItem
              colour="var(--c-primary)"
              label={t('markets.detail.price')}
              value={formatPrice(shown.c[i], d)}
            />
            <LegendItem
              colour={MA_COLOURS.ma5}
              label={t('markets.detail.average')}
              value={formatPrice(shown.avg[i], d)}
            />
          </>
        ) : (
          <>
            <LegendItem colour={MA_COLOURS.ma5} label="MA5" value={formatPrice(shown.ma5[i], d)} />
            <LegendItem colour={MA_COLOURS.ma10} label="MA10" value={formatPrice(shown.ma10[i], d)} />
            <LegendItem colour={MA_COLOURS.ma20} label="MA20" value={formatPrice(shown.ma20[i], d)} />
          </>
        )}
        {stale && <AsOf at={shown.asOf} stale />}
      </figcaption>
      {!timeline && i >= 0 && (
        <dl
          className={s.ohlc}
          aria-label={
            inspected === null
              ? t('markets.detail.lastCandle')
              : t('markets.detail.candleAt', { time: barTime(shown.t[i]!, shown.period, language, schedule) })
          }
          data-candle={i}
        >
          <div>
            <dt>O</dt>
            <dd className="num">{formatPrice(shown.o[i], d)}</dd>
          </div>
          <div>
            <dt>H</dt>
            <dd className="num">{formatPrice(shown.h[i], d)}</dd>
          </div>
          <div>
            <dt>L</dt>
            <dd className="num">{formatPrice(shown.l[i], d)}</dd>
          </div>
          <div>
            <dt>C</dt>
            <dd className="num">{formatPrice(shown.c[i], d)}</dd>
          </div>
        </dl>
      )}
      <StockChart
        frame={shown}
        period={shown.period}
        label={t('markets.detail.chartLabel', { name, period: periodLabel })}
        hours={schedule}
        onCross={setCross}
      />
    </figure>
  );
}

function LegendItem({ colour, label, value }: { colour: string; label: string; value: string }) {
  return (
    <span className={s.legendItem}>
      <span className={s.swatch} style={{ background: colour }} aria-hidden="true" />
      {label} <span className="num">{value}</span>
    </span>
  );
}
