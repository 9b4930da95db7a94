import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { useConfig } from '../../../api/useConfig';
import { ERR } from '../../../shared/call';
import type { HistoryRange, PortfolioSummary } from '../../../shared/contract/portfolio';
import { type CurrencyDisplay, formatMoney, formatPercent } from '../../../shared/format';
import { toMinor } from '../../../shared/money';
import { HOLDING_TYPES } from '../../../shared/rules';
import { Button } from '../../../ui/Button';
import { type Failure, FailureBoundary, retryableLazy } from '../../../ui/FailureBoundary';
import { LoadError, Skeleton } from '../../../ui/States';
import { Segmented } from '../../../ui/Tabs';
import ui from '../../../ui/ui.module.css';
import { Signed } from './parts';
import s from './portfolio.module.css';

/** The chart's code (chart.js) loads once a history is there; a failed load is retried from its box. */
const valueChart = retryableLazy(() => import('./ValueChart'));

const RANGES: HistoryRange[] = ['1W', '1M', '1Y', 'ALL'];
/** The history changes once a day plus the live last point: a minute is fresh enough. */
const HISTORY_POLL_MS = 60_000;

/** Portfolio value over 1W/1M/1Y/All from the server's daily snapshots, the total now last. */
function ChartFailed({ why, onRetry }: { why: Failure; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={s.chartEmpty} role="alert">
      <p>{t(why === 'fetch' ? 'portfolio.chartFailed' : 'portfolio.chartBroken')}</p>
      <Button variant="secondary" onClick={onRetry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

export function ValueChartCard() {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const [range, setRange] = useState<HistoryRange>('1M');
  const history = useWatch('portfolioHistory', { range }, HISTORY_POLL_MS);
  const points = history.data?.points;
  const first = points?.[0];
  const last = points?.[points.length - 1];
  return (
    <section className={s.card} aria-labelledby="portfolio-chart">
      <div className={s.chartHead}>
        <h2 id="portfolio-chart" className={ui.sectionTitle}>
          {t('portfolio.chart')}
        </h2>
        {history.data && points && points.length > 1 && (
          <Signed amount={history.data.change} percent={history.data.change_percent} currency={currency} />
        )}
      </div>
      <div className={s.chartBox}>
        {points === undefined ? (
          history.error ? (
            <p className={s.chartEmpty}>{t(history.error)}</p>
          ) : (
            <Skeleton height={140} />
          )
        ) : points.length < 2 ? (
          <p className={s.chartEmpty}>{t('portfolio.chartEmpty')}</p>
        ) : (
          <>
            <p className="visually-hidden">
              {t('portfolio.chartSummary', {
                range: t(`portfolio.rangeNames.${range}`),
                from: formatMoney(first?.total ?? '0.00', currency),
                to: formatMoney(last?.total ?? '0.00', currency),
                change: formatMoney(history.data?.change ?? '0.00', currency),
              })}
            </p>
            <FailureBoundary
              onRetry={valueChart.retry}
              failed={(why, retry) => <ChartFailed why={why} onRetry={retry} />}
            >
              <Suspense fallback={<Skeleton height={140} />}>
                <valueChart.Component points={points} />
              </Suspense>
            </FailureBoundary>
          </>
        )}
      </div>
      <div className={s.ranges}>
        <Segmented<HistoryRange>
          label={t('portfolio.chartRange')}
          value={range}
          onChange={setRange}
          items={RANGES.map((value) => ({ value, label: t(`portfolio.ranges.${value}`) }))}
        />
      </div>
      <p className={s.disclosure}>{t('portfolio.disclosure')}</p>
    </section>
  );
}

type Part = (typeof HOLDING_TYPES)[number] | 'cash' | 'reserved' | 'funds';

/** What the total is made of, by type: one stacked bar and a legend with amounts and shares. */
export function Allocation({
  summary,
  error,
}: {
  summary: PortfolioSummary | undefined;
  /** Why the summary is not there (never loaded while the server cannot answer). */
  error?: string | null;
}) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const parts = summary ? partsOf(summary) : [];
  const total = parts.reduce((sum, p) => sum + p.minor, 0);
  return (
    <section className={s.card} aria-labelledby="portfolio-allocation" data-testid="allocation">
      <h2 id="portfolio-allocation" className={ui.sectionTitle}>
        {t('portfolio.allocation')}
      </h2>
      {summary === undefined ? (
        // Never loaded while the server is silent says so; another failure is the screen's to tell.
        error === ERR.notLoaded ? (
          <LoadError error={error} />
        ) : error ? (
          <p className={s.count}>—</p>
        ) : (
          <Skeleton height={60} />
        )
      ) : total <= 0 ? (
        <p className={s.count}>{t('portfolio.allocationEmpty')}</p>
      ) : (
        <>
          <div className={s.bar} aria-hidden="true">
            {parts.map((p) => (
              <span
                key={p.part}
                className={s[`part_${p.part}`]}
                style={{ width: `${(p.minor / total) * 100}%` }}
              />
            ))}
          </div>
          <ul className={s.legend}>
            {parts.map((p) => (
              <li
                key={p.part}
                aria-label={t('portfolio.share', {
                  part: t(`portfolio.parts.${p.part}`),
                  amount: formatMoney(p.minor, currency),
                  percent: share(p.minor, total),
                })}
              >
                <span className={`${s.swatch} ${s[`part_${p.part}`]}`} aria-hidden="true" />
                <span className={s.legendName} aria-hidden="true">
                  {t(`portfolio.parts.${p.part}`)}
                </span>
                <span className={s.legendValue} aria-hidden="true">
                  {share(p.minor, total)}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** A share of the whole for display ("42.1%"); the amounts themselves stay exact. */
function share(part: number, total: number): string {
  return formatPercent((part / total) * 100, 1).replace(/^\+/, '');
}

function partsOf(summary: PortfolioSummary): Array<{ part: Part; minor: number }> {
  const minor = (v: string) => toMinor(v) ?? 0;
  const all: Array<{ part: Part; minor: number }> = [
    ...HOLDING_TYPES.map((type) => ({ part: type as Part, minor: minor(summary.by_type[type].value) })),
    { part: 'cash', minor: minor(summary.hero.available) },
    { part: 'reserved', minor: minor(summary.hero.reserved.total) },
    { part: 'funds', minor: minor(summary.hero.funds) },
  ];
  return all.filter((p) => p.minor > 0);
}

/** Home and Account's headline under the total: how much the whole account moved today. */
export function TodayLine({
  summary,
  currency,
  className,
}: {
  summary: PortfolioSummary | undefined;
  currency: CurrencyDisplay;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={`${s.todayLine} ${className ?? ''}`} data-testid="portfolio-today-line">
      <span>{t('portfolio.todayChange')}</span>{' '}
      {summary ? <Signed amount={summary.today} percent={summary.today_percent} currency={currency} /> : '—'}
    </div>
  );
}
