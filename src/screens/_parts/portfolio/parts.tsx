import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { useConfig } from '../../../api/useConfig';
import type { PortfolioTotals } from '../../../shared/contract/portfolio';
import { type CurrencyDisplay, formatMoney, formatPercent } from '../../../shared/format';
import { toMinor } from '../../../shared/money';
import { POLL_MS } from '../../../shared/rules';
import { AsOf } from '../../../ui/AsOf';
import { Skeleton } from '../../../ui/States';
import ui from '../../../ui/ui.module.css';
import s from './portfolio.module.css';

/** The server's portfolio summary, polled with the prices it rests on. */
export function usePortfolioSummary() {
  return useWatch('portfolioSummary', {}, POLL_MS.prices);
}

/**
 * A signed amount with its percent, in the text colour: the sign and arrow say which way, and the
 * portfolio's own numbers stay calm (no red/green verdict on the user's money).
 */
export function Signed({
  amount,
  percent,
  currency,
  className,
}: {
  amount: string;
  percent?: number;
  currency: CurrencyDisplay;
  className?: string;
}) {
  const minor = toMinor(amount) ?? 0;
  const arrow = minor > 0 ? '▲' : minor < 0 ? '▼' : '';
  return (
    <span className={`${s.signed} num ${className ?? ''}`} data-sign={Math.sign(minor)}>
      {arrow && (
        <span aria-hidden="true" className={s.arrow}>
          {arrow}
        </span>
      )}
      {minor > 0 ? '+' : ''}
      {formatMoney(amount, currency)}
      {percent !== undefined && <span className={s.percent}> ({formatPercent(percent)})</span>}
    </span>
  );
}

/** Current value, invested, total and today's P&L of a set of positions, with the time they hold. */
export function TotalsCard({
  totals,
  title,
  updatedAt,
  stale,
  every,
  action,
}: {
  /** A link beside the time (the Trade tab's way to the statement). */
  action?: ReactNode;
  totals: PortfolioTotals | undefined;
  title: string;
  updatedAt: number | null;
  stale: boolean;
  every?: number;
}) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  return (
    <section className={s.card} aria-label={title} data-testid="portfolio-totals">
      <div className={s.cardHead}>
        <span className={s.label}>{t('portfolio.value')}</span>
        {totals && <span className={s.count}>{t('portfolio.positions', { count: totals.positions })}</span>}
      </div>
      <div className={`${s.big} num`} data-testid="portfolio-value">
        {totals ? formatMoney(totals.value, currency) : <Skeleton width={160} height={30} />}
      </div>
      <dl className={`${ui.stats} ${s.grid}`}>
        <div>
          <dt>{t('portfolio.invested')}</dt>
          <dd className="num" data-testid="portfolio-invested">
            {totals ? formatMoney(totals.invested, currency) : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('portfolio.pnl')}</dt>
          <dd data-testid="portfolio-pnl">
            {totals ? <Signed amount={totals.pnl} percent={totals.pnl_percent} currency={currency} /> : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('portfolio.today')}</dt>
          <dd data-testid="portfolio-today">
            {totals ? (
              <Signed amount={totals.today_pnl} percent={totals.today_percent} currency={currency} />
            ) : (
              '—'
            )}
          </dd>
        </div>
      </dl>
      <div className={s.foot}>
        {/* Quotes' own time when there is one; otherwise when the device heard the server. */}
        <AsOf at={totals?.as_of || updatedAt} fetchedAt={updatedAt} stale={stale} every={every} />
        {action}
      </div>
      <p className={s.disclosure}>{t('portfolio.disclosure')}</p>
    </section>
  );
}
