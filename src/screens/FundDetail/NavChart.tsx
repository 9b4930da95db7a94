import { useTranslation } from 'react-i18next';
import type { FundNav } from '../../shared/contract/funds';
import { formatNumber, trendClass } from '../../shared/format';
import { NAV_RANGES, type NavRange } from '../../shared/funds';
import { Segmented, Skeleton, Sparkline } from '../../ui';
import s from '../_parts/funds/funds.module.css';
import { signedPercent, useNavDate } from '../_parts/funds/labels';

/**
 * The NAV over a range (the worker draws the line, as every sparkline): its first and last NAV
 * with their dates and the change between them, in the neutral colour of the trend with a sign.
 */
export function NavChart({
  nav,
  range,
  onRange,
}: {
  nav: FundNav | undefined;
  range: NavRange;
  onRange: (range: NavRange) => void;
}) {
  const { t } = useTranslation();
  const navDate = useNavDate();
  const points = nav?.range === range ? nav.points : undefined;
  const first = points?.[0];
  const last = points?.at(-1);
  const change = nav?.range === range ? nav.change : null;
  return (
    <section className={s.chartCard} aria-label={t('fund.chart')}>
      <Segmented<NavRange>
        label={t('fund.chart')}
        value={range}
        onChange={onRange}
        items={NAV_RANGES.map((r) => ({ value: r, label: t(`fund.range.${r}`) }))}
      />
      <div className={s.chart}>
        {points ? (
          <Sparkline
            values={points.map((p) => p.nav)}
            trend={Number(change ?? 0)}
            width="100%"
            height="100%"
          />
        ) : (
          <Skeleton height={140} />
        )}
      </div>
      {first && last && (
        <div className={s.chartEnds}>
          <span>
            {navDate(first.date)} · <span className="num">{formatNumber(first.nav, 4)}</span>
          </span>
          <span>
            {navDate(last.date)} · <span className="num">{formatNumber(last.nav, 4)}</span>
          </span>
        </div>
      )}
      {change !== null && (
        <p className={`${s.chartChange} ${trendClass(Number(change))}`} data-testid="fund-nav-change">
          {t('fund.change', { pct: signedPercent(change) })}
        </p>
      )}
    </section>
  );
}
