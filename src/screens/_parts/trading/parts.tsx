import { formatChange, formatPercent, trendClass } from '../../../shared/format';
import s from './trading.module.css';

/** Pieces the trading screens share (watchlist, holdings, stock trading, records). */

/** "▲ +1.23%" on the up colour: a sign and an arrow, so colour never carries the meaning alone. */
export function ChangePill({ percent }: { percent: number }) {
  const cls = percent > 0 ? s.changeUp : percent < 0 ? s.changeDown : '';
  const arrow = percent > 0 ? '▲' : percent < 0 ? '▼' : '';
  return (
    <span className={`${s.changePill} ${cls}`}>
      {arrow && <span aria-hidden="true">{arrow} </span>}
      {formatPercent(percent)}
    </span>
  );
}

/** A change and percent in the up/down colour ("+12.40 (+1.23%)"). */
export function ChangeText({
  change,
  percent,
  decimals = 2,
  className,
}: {
  change: number;
  percent: number;
  decimals?: number;
  className?: string;
}) {
  // Either figure rising marks the pair up; then either falling marks it down.
  const cls = trendClass(percent > 0 || change > 0 ? 1 : percent || change);
  return (
    <span className={`${cls} ${className ?? ''} num`}>
      {formatChange(change, decimals)} ({formatPercent(percent)})
    </span>
  );
}

/**
 * Decimals to show an order's per-unit price with: order rows carry no instrument decimals, and
 * prices are exact to 1/10,000 (money.ts PRICE_SCALE), so two places unless more are needed.
 */
export function priceDecimals(price: number): number {
  return Math.abs(Math.round(price * 10_000) % 100) === 0 ? 2 : 4;
}
