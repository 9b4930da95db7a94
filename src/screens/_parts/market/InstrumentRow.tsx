import { memo } from 'react';
import { Link } from 'react-router-dom';
import { useQuote } from '../../../api/quotes';
import { stockPath } from '../../../paths';
import type { StockRow } from '../../../shared/contract/market';
import { formatChange, formatPercent, formatPrice, trendClass } from '../../../shared/format';
import { displayCode } from '../../../shared/rules';
import { ui } from '../../../ui';
import s from './market.module.css';
import { StarButton } from './StarButton';

export interface InstrumentRowProps {
  to: string;
  symbol: string;
  name: string;
  /** Exchange or market shown as a small tag beside the code. */
  tag?: string;
  price: number;
  change: number;
  percent: number;
  decimals: number;
  /** The market the star files the instrument under; no star without it (e.g. an index card). */
  star?: { market?: string };
}

/**
 * One instrument of a market list (stocks, forex, futures, treasury debt): name and code on the
 * left, price, change and percent on the right. A live price seen elsewhere in the app (the
 * worker's quote hub) replaces the row's when it is newer.
 */
const InstrumentRow = memo(function InstrumentRow(props: InstrumentRowProps) {
  const live = useQuote(props.symbol).quote;
  const fresh = live && live.source === 'network' && live.change !== undefined;
  const price = fresh ? live.price : props.price;
  const change = fresh ? (live.change ?? props.change) : props.change;
  const percent = fresh ? (live.percent ?? props.percent) : props.percent;
  const tone = trendClass(change);
  const code = displayCode(props.symbol);
  const priceText = formatPrice(price, props.decimals);
  const changeText = formatChange(change, props.decimals);
  const percentText = formatPercent(percent);
  return (
    <li className={props.star ? s.starred : undefined}>
      {/*
       * Named by what it shows, in the order shown (WCAG 2.5.3: a voice user says what they see):
       * the name, the code, the price, the change and the percent, each with its sign.
       */}
      <Link to={props.to} className={s.row} data-symbol={props.symbol}>
        <span className={s.rowMain}>
          <span className={`${ui.name} ${s.rowName}`}>{props.name}</span>{' '}
          <span className={ui.rowSub}>
            <span className={s.rowCode}>{code}</span>{' '}
            {props.tag && <span className={s.rowTag}>{props.tag}</span>}
          </span>
        </span>{' '}
        <span className={s.rowNums}>
          <span className={`${s.rowPrice} num`}>{priceText}</span>{' '}
          <span className={`${s.rowChange} num ${tone}`}>{changeText}</span>
        </span>{' '}
        <span className={`${s.pct} num ${tone === 'up' ? s.pctUp : tone === 'down' ? s.pctDown : ''}`}>
          {percentText}
        </span>
      </Link>
      {props.star && <StarButton symbol={props.symbol} name={props.name} market={props.star.market} />}
    </li>
  );
});

/**
 * A row of a market list as an InstrumentRow: stocks (`/v2/stock/list`, the same-market list),
 * futures and treasury debt, and forex pairs (which name no exchange, so carry no tag).
 */
export function StockListRow({
  row,
}: {
  row: Pick<StockRow, 'stock' | 'name' | 'market' | 'prasent' | 'change' | 'percent_change' | 'decimals'> &
    Partial<Pick<StockRow, 'exchange_name'>>;
}) {
  return (
    <InstrumentRow
      to={stockPath(row.stock, row.name, row.market)}
      symbol={row.stock}
      name={row.name}
      tag={row.exchange_name}
      price={row.prasent}
      change={row.change}
      percent={row.percent_change}
      decimals={row.decimals}
      star={{ market: row.market }}
    />
  );
}
