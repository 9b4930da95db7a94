import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useQuote } from '../../api/quotes';
import type { FavouriteItem } from '../../device/favourites';
import { stockPath } from '../../paths';
import { formatPrice } from '../../shared/format';
import { displayCode } from '../../shared/rules';
import { IconClose, ui } from '../../ui';
import { marketName } from '../_parts/market/names';
import { ChangePill } from '../_parts/trading/parts';
import s from '../_parts/trading/trading.module.css';
import {
  actionsWidth,
  type RowActionHandlers,
  type RowInstrument,
  SwipeActions,
} from '../_parts/watchlist/RowActions';
import { SwipeRow } from '../_parts/watchlist/SwipeRow';

const rowInstrument = (item: FavouriteItem): RowInstrument => ({
  symbol: item.stock_code,
  name: item.stock_name,
  market: item.stock_detail.market,
});

/**
 * One instrument of a watchlist: name, code, live price and change. Swipe left for Buy, Sell,
 * Chart, Alert and Remove; a long press opens the same as a sheet (`onMenu`); edit mode shows a
 * delete button instead.
 */
export function WatchRow({
  item,
  editing,
  onDelete,
  onMenu,
  handlers,
}: {
  item: FavouriteItem;
  editing: boolean;
  onDelete: (item: FavouriteItem) => void;
  onMenu: (row: RowInstrument) => void;
  handlers: RowActionHandlers;
}) {
  const { t } = useTranslation();
  // The list polls every 5 s; a fresher live price of the same symbol wins between polls.
  const { quote } = useQuote(item.stock_code);
  const d = item.stock_detail;
  const live = quote && quote.asOf >= d.as_of ? quote : null;
  const price = live?.price ?? d.prasent;
  const percent = live?.percent ?? d.percent_change;
  const decimals = live?.decimals ?? d.decimals;
  const code = displayCode(item.stock_code);
  const row = rowInstrument(item);
  return (
    <SwipeRow
      symbol={item.stock_code}
      actions={<SwipeActions row={row} handlers={handlers} />}
      actionsWidth={actionsWidth(row)}
      onMenu={() => onMenu(row)}
    >
      <Link to={stockPath(item.stock_code, item.stock_name)} className={s.rowLink} draggable={false}>
        <span className={s.rowName}>
          <span className={`${ui.name} ${s.rowTitle}`}>{item.stock_name}</span>
          <span className={ui.rowSub}>
            <span className={s.code}>{code}</span>
            {(d.exchange_name || d.market) && (
              <span className={s.tag}>{d.exchange_name || marketName(t, d.market, d.market_name)}</span>
            )}
            {item.pending && <span className={ui.pendingTag}>{t('core.favourite.pending')}</span>}
          </span>
        </span>
        <span className={`${s.price} num`}>{formatPrice(price, decimals)}</span>
        {/* Edit mode gives the name the room the delete button takes. */}
        {!editing && <ChangePill percent={percent} />}
      </Link>
      {editing && item.pending !== 'remove' && (
        <button
          type="button"
          className={s.deleteButton}
          aria-label={t('watchlist.deleteOne', { code })}
          onClick={() => onDelete(item)}
        >
          <IconClose size={20} />
        </button>
      )}
    </SwipeRow>
  );
}
