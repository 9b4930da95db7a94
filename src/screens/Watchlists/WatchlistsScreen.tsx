import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type FavouriteItem, useFavourites } from '../../api/favourites';
import { useQuote } from '../../api/quotes';
import type { IndexCard } from '../../shared/contract/market';
import { formatPercent, formatPrice } from '../../shared/format';
import { displayCode, PAGE_SIZE, POLL_MS } from '../../shared/rules';
import {
  AsOf,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  IconClose,
  IconStar,
  LoadMore,
  PageHeader,
  Skeleton,
  SkeletonList,
} from '../../ui';
import { stockPath } from '../invest/parts';
import { ChangePill } from '../trade/parts';
import s from '../trade/trade.module.css';
import { useWatchlists } from './useWatchlists';

/** Watchlist (SPEC §2): index shortcuts, favourites with price and change, edit mode with delete. */
export default function WatchlistsScreen() {
  const { t } = useTranslation();
  const w = useWatchlists();
  const { first, paging } = w;
  const items = first.items;
  const empty = !first.loading && items.length === 0 && first.error === null;

  return (
    <main className={s.page}>
      <PageHeader
        title={t('watchlist.title')}
        noBack
        actions={
          items.length > 0 && (
            <button
              type="button"
              className={s.headerLink}
              aria-pressed={w.editing}
              onClick={() => w.setEditing(!w.editing)}
            >
              {t(w.editing ? 'watchlist.done' : 'watchlist.edit')}
            </button>
          )
        }
      />
      <IndexShortcuts
        indices={w.indices.data?.rows}
        error={w.indices.error}
        stale={w.indices.stale}
        at={w.indices.updatedAt}
      />

      <div className={s.sectionHead}>
        <h2 className={s.sectionTitle} id="favourites-title">
          {t('watchlist.favourites')}
        </h2>
        {first.stale && <AsOf at={first.updatedAt} stale />}
      </div>
      {first.loading && items.length === 0 ? (
        <SkeletonList rows={5} height={52} />
      ) : first.error && items.length === 0 ? (
        <ErrorState message={t(first.error)} onRetry={first.reload} />
      ) : empty ? (
        <EmptyState title={t('watchlist.empty')} icon={<IconStar size={28} />}>
          <Link to="/markets">{t('watchlist.browse')}</Link>
        </EmptyState>
      ) : (
        <>
          <ul className={s.rows} aria-labelledby="favourites-title">
            {items.map((item) => (
              <FavouriteRow
                key={item.stock_code}
                item={item}
                editing={w.editing}
                onDelete={w.setConfirming}
              />
            ))}
            {paging.rest.map((page) => (
              <FavouritePage
                key={page}
                page={page}
                editing={w.editing}
                onDelete={w.setConfirming}
                onSettled={paging.settle}
              />
            ))}
          </ul>
          <LoadMore hasMore={w.hasMore} loading={paging.loading} onMore={paging.more} />
        </>
      )}

      <ConfirmDialog
        open={w.confirming !== null}
        title={t('watchlist.deleteTitle')}
        message={
          w.confirming &&
          t('watchlist.deleteMessage', {
            name: w.confirming.stock_name,
            code: displayCode(w.confirming.stock_code),
          })
        }
        confirmLabel={t('watchlist.delete')}
        danger
        busy={w.deleting}
        onCancel={() => w.setConfirming(null)}
        onConfirm={() => w.confirming && void w.remove(w.confirming)}
      />
    </main>
  );
}

function IndexShortcuts({
  indices,
  error,
  stale,
  at,
}: {
  indices: IndexCard[] | undefined;
  error: string | null;
  stale: boolean;
  at: number | null;
}) {
  const { t } = useTranslation();
  if (indices === undefined && error) return null;
  return (
    <section aria-label={t('watchlist.indices')}>
      <ul className={s.indices}>
        {indices === undefined
          ? Array.from({ length: 3 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
              <li key={i}>
                <Skeleton height={76} />
              </li>
            ))
          : indices.map((index) => (
              <li key={index.symbol}>
                <Link to={stockPath(index.symbol, index.name)} className={s.indexCard}>
                  <span className={s.indexName}>{index.name}</span>
                  <span className={s.indexPrice}>{formatPrice(index.prasent)}</span>
                  <span
                    className={`${s.indexChange} ${index.percent_change > 0 ? s.up : index.percent_change < 0 ? s.down : ''}`}
                  >
                    {formatPercent(index.percent_change)}
                  </span>
                </Link>
              </li>
            ))}
      </ul>
      {stale && (
        <div className={s.asOfLine}>
          <AsOf at={at} stale />
        </div>
      )}
    </section>
  );
}

/** Pages after the first, each its own 5 s poll; they render as more rows of the same list. */
function FavouritePage({
  page,
  editing,
  onDelete,
  onSettled,
}: {
  page: number;
  editing: boolean;
  onDelete: (item: FavouriteItem) => void;
  onSettled: (page: number) => void;
}) {
  const { items, loading } = useFavourites(page, PAGE_SIZE, POLL_MS.prices);
  useEffect(() => {
    if (!loading) onSettled(page);
  }, [loading, page, onSettled]);
  if (loading) return null;
  return (
    <>
      {items.map((item) => (
        <FavouriteRow key={item.stock_code} item={item} editing={editing} onDelete={onDelete} />
      ))}
    </>
  );
}

function FavouriteRow({
  item,
  editing,
  onDelete,
}: {
  item: FavouriteItem;
  editing: boolean;
  onDelete: (item: FavouriteItem) => void;
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
  return (
    <li className={s.row} data-symbol={item.stock_code}>
      <Link to={stockPath(item.stock_code, item.stock_name)} className={s.rowLink}>
        <span className={s.rowName}>
          <span className={s.rowTitle}>{item.stock_name}</span>
          <span className={s.rowSub}>
            <span className={s.code}>{code}</span>
            {d.market && <span className={s.tag}>{d.market}</span>}
            {item.pending && <span className={s.pending}>{t('core.favourite.pending')}</span>}
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
    </li>
  );
}
