import { memo } from 'react';
import { Link } from 'react-router-dom';
import type { IndexCard as IndexCardData } from '../../shared/contract/market';
import { formatChange, formatPercent, formatPrice, trendClass } from '../../shared/format';
import { Sparkline } from '../../ui';
import { stockPath } from './links';
import s from './markets.module.css';

/**
 * An index card (Home and Markets): name, level, change with its sign, and the session's
 * sparkline. Tapping opens the index's detail.
 */
export const IndexCard = memo(function IndexCard({
  index,
  wide = false,
}: {
  index: IndexCardData;
  /** The Markets card: larger, with a wider sparkline. */
  wide?: boolean;
}) {
  const tone = trendClass(index.change);
  return (
    <Link
      to={stockPath(index.symbol, index.name)}
      className={`${s.indexCard} ${wide ? s.indexWide : ''}`}
      data-symbol={index.symbol}
    >
      <span className={s.indexName}>{index.name}</span>
      <span className={`${s.indexPrice} num ${tone}`}>{formatPrice(index.prasent)}</span>
      <span className={`${s.indexChange} num ${tone}`}>
        {formatChange(index.change)}
        <span>{formatPercent(index.percent_change)}</span>
      </span>
      <span className={`${s.indexSpark} ${tone}`}>
        <Sparkline values={index.spark} trend={index.change} width="100%" height={wide ? 56 : 36} />
      </span>
    </Link>
  );
});
