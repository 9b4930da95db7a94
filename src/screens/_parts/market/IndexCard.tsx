import { memo } from 'react';
import { Link } from 'react-router-dom';
import { stockPath } from '../../../paths';
import type { IndexCard as IndexCardData } from '../../../shared/contract/market';
import { formatChange, formatPercent, formatPrice, trendClass } from '../../../shared/format';
import { Sparkline } from '../../../ui/Sparkline';
import ui from '../../../ui/ui.module.css';
import s from './market.module.css';

/**
 * An index card (Home, Markets and the watchlist's strip): name, level, change with its sign,
 * and the session's sparkline. Tapping opens the index's detail. Named by what it shows, in that
 * order (WCAG 2.5.3).
 */
export const IndexCard = memo(function IndexCard({
  index,
  size = 'regular',
}: {
  index: IndexCardData;
  /** `wide`: the Markets card, larger, with a wider sparkline; `compact`: the watchlist's strip, without it. */
  size?: 'compact' | 'regular' | 'wide';
}) {
  const wide = size === 'wide';
  const tone = trendClass(index.change);
  const price = formatPrice(index.prasent);
  const change = formatChange(index.change);
  const percent = formatPercent(index.percent_change);
  return (
    <Link
      to={stockPath(index.symbol, index.name)}
      className={`${s.indexCard} ${wide ? s.indexWide : ''}`}
      data-symbol={index.symbol}
    >
      <span className={`${ui.name} ${s.indexName}`}>{index.name}</span>{' '}
      <span className={`${s.indexPrice} num ${tone}`}>{price}</span>{' '}
      <span className={`${s.indexChange} num ${tone}`}>
        {change} <span>{percent}</span>
      </span>
      {size !== 'compact' && (
        <span className={`${s.indexSpark} ${tone}`}>
          <Sparkline values={index.spark} trend={index.change} width="100%" height={wide ? 56 : 36} />
        </span>
      )}
    </Link>
  );
});
