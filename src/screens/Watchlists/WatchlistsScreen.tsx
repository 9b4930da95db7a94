import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { type FavouriteItem, useFavouriteMap, useFavourites } from '../../device/favourites';
import { PATHS } from '../../paths';
import type { IndexCard as IndexCardData, StockRow } from '../../shared/contract/market';
import { displayCode, PAGE_SIZE, POLL_MS } from '../../shared/rules';
import {
  AsOf,
  ConfirmDialog,
  EmptyState,
  IconBell,
  IconEdit,
  IconPlus,
  IconStar,
  ListStates,
  LoadMore,
  PageHeader,
  Skeleton,
  Tabs,
  ui,
} from '../../ui';
import { IndexCard } from '../_parts/market/IndexCard';
import { SearchField, useMarketSearch } from '../_parts/market/MarketSearch';
import s from '../_parts/trading/trading.module.css';
import { AlertDialog } from '../_parts/watchlist/AlertDialog';
import { ActionsSheet, type RowActionHandlers, type RowInstrument } from '../_parts/watchlist/RowActions';
import { listName } from '../_parts/watchlist/useLists';
import w from '../_parts/watchlist/watchlist.module.css';
import { ListsSheet, NameDialog } from './ListsSheet';
import { InstrumentPicks, SearchPanel } from './SearchPanel';
import { useWatchlists } from './useWatchlists';
import { WatchRow } from './WatchRow';

/**
 * Watchlist (SPEC §2): a search field with instant results, index shortcuts, the user's
 * named lists as tabs (Favourites first), rows with swipe / long-press actions, edit mode with
 * delete, and popular instruments to add when a list is empty.
 */
export default function WatchlistsScreen() {
  const { t } = useTranslation();
  const w$ = useWatchlists();
  const { first, paging, selected, named } = w$;
  const items = named === null ? first.items : w$.namedRows;
  const shown = named === null ? first : w$.namedItems;
  const { text, setText, term } = useMarketSearch();
  const [menu, setMenu] = useState<RowInstrument | null>(null);
  const [alerting, setAlerting] = useState<RowInstrument | null>(null);
  const [managing, setManaging] = useState(false);
  const [creating, setCreating] = useState(false);
  const tabsId = useId();
  const title = selected ? listName(selected, t) : t('watchlist.favourites');
  const favourites = useFavouriteMap();
  const inNamed = useMemo(
    () => new Set(w$.namedRows.filter((r) => r.pending !== 'remove').map((r) => r.stock_code)),
    [w$.namedRows],
  );
  const has = (symbol: string) => (named === null ? favourites[symbol]?.on === true : inNamed.has(symbol));

  const handlers: RowActionHandlers = {
    onAlert: setAlerting,
    onRemove: (row) => {
      const item = items.find((i) => i.stock_code === row.symbol);
      if (item) w$.setConfirming({ item, list: named });
    },
  };
  const onToggle = (row: StockRow, on: boolean) =>
    void w$.toggle(row.stock, on, { name: row.name, market: row.market });

  return (
    <main className={`${ui.page} ${s.page}`}>
      <PageHeader
        title={t('watchlist.title')}
        noBack
        actions={
          <>
            <Link to={PATHS.alerts} className={s.headerLink} aria-label={t('watch.alerts.title')}>
              <IconBell size={22} />
            </Link>
            {items.length > 0 && (
              <button
                type="button"
                className={s.headerLink}
                aria-pressed={w$.editing}
                onClick={() => w$.setEditing(!w$.editing)}
              >
                {t(w$.editing ? 'watchlist.done' : 'watchlist.edit')}
              </button>
            )}
          </>
        }
      />
      <SearchField text={text} onChange={setText} />

      {term !== '' ? (
        <section className={w.popular} aria-label={t('markets.search.results')}>
          <SearchPanel term={term} listName={title} has={has} onToggle={onToggle} />
        </section>
      ) : (
        <>
          <IndexShortcuts
            indices={w$.indices.data?.rows}
            error={w$.indices.error}
            stale={w$.indices.stale}
            at={w$.indices.updatedAt}
          />

          <div className={w.listBar}>
            <div className={w.listTabs}>
              {w$.lists.rows.length > 1 && selected && (
                <Tabs
                  id={tabsId}
                  label={t('watch.lists.title')}
                  value={String(selected.id)}
                  onChange={(id) => {
                    w$.select(Number(id));
                    w$.setEditing(false);
                  }}
                  items={w$.lists.rows.map((l) => ({ value: String(l.id), label: listName(l, t) }))}
                />
              )}
            </div>
            {/* Said in words beside the sign: a "+" alone under the index cards read as "add a stock". */}
            <button type="button" className={w.listAction} onClick={() => setCreating(true)}>
              <IconPlus size={18} />
              {t('watch.lists.new')}
            </button>
            {w$.lists.rows.length > 1 && (
              <button type="button" className={w.listAction} onClick={() => setManaging(true)}>
                <IconEdit size={18} />
                {t('watch.lists.manage')}
              </button>
            )}
          </div>

          <div className={s.sectionHead}>
            <h2 className={ui.sectionTitle} id="favourites-title">
              {title}
            </h2>
            {selected?.pending && <span className={ui.pendingTag}>{t('core.favourite.pending')}</span>}
            {shown.stale && <AsOf at={shown.updatedAt} stale />}
          </div>
          <ListStates
            rows={items.length === 0 && (shown.loading || shown.error) ? undefined : items}
            error={shown.loading ? null : shown.error}
            onRetry={shown.reload}
            skeleton={{ rows: 5, height: 52 }}
            empty={
              <>
                <EmptyState
                  title={t(named === null ? 'watchlist.empty' : 'watch.lists.empty')}
                  icon={<IconStar size={28} />}
                >
                  <Link to={PATHS.markets}>{t('watchlist.browse')}</Link>
                </EmptyState>
                <Popular listName={title} has={has} onToggle={onToggle} />
              </>
            }
          >
            {(rows) => (
              <>
                <ul className={`${ui.cardList} ${s.rows}`} aria-labelledby="favourites-title">
                  {rows.map((item) => (
                    <WatchRow
                      key={item.stock_code}
                      item={item}
                      editing={w$.editing}
                      onDelete={(i) => w$.setConfirming({ item: i, list: named })}
                      onMenu={setMenu}
                      handlers={handlers}
                    />
                  ))}
                  {named === null &&
                    paging.rest.map((page) => (
                      <FavouritePage
                        key={page}
                        page={page}
                        editing={w$.editing}
                        onDelete={(i) => w$.setConfirming({ item: i, list: null })}
                        onMenu={setMenu}
                        handlers={handlers}
                        onSettled={paging.settle}
                      />
                    ))}
                </ul>
                {named === null && (
                  <LoadMore hasMore={w$.hasMore} loading={paging.loading} onMore={paging.more} />
                )}
                <p className={w.toolbar}>{t('watch.row.hint')}</p>
              </>
            )}
          </ListStates>
        </>
      )}

      <ConfirmDialog
        open={w$.confirming !== null}
        title={t('watchlist.deleteTitle')}
        message={
          w$.confirming &&
          t('watchlist.deleteMessage', {
            name: w$.confirming.item.stock_name,
            code: displayCode(w$.confirming.item.stock_code),
          })
        }
        confirmLabel={t('watchlist.delete')}
        danger
        busy={w$.deleting}
        onCancel={() => w$.setConfirming(null)}
        onConfirm={() => w$.confirming && void w$.remove(w$.confirming)}
      />
      <ActionsSheet row={menu} handlers={handlers} onClose={() => setMenu(null)} />
      <AlertDialog target={alerting} onClose={() => setAlerting(null)} />
      <ListsSheet open={managing} onClose={() => setManaging(false)} lists={w$.lists} />
      <NameDialog
        target={creating ? 'new' : null}
        busy={w$.lists.busy}
        onClose={() => setCreating(false)}
        onSave={async (name) => {
          const made = await w$.lists.create(name);
          if (made) {
            setCreating(false);
            w$.select(made.id);
          }
          return made;
        }}
      />
    </main>
  );
}

/** An empty list offers the first instruments of the home market, each added with one tap. */
function Popular({
  listName: name,
  has,
  onToggle,
}: {
  listName: string;
  has: (symbol: string) => boolean;
  onToggle: (row: StockRow, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const popular = useWatch('stockList', { page: 1, limit: 5 }, 0);
  const rows = popular.data?.rows ?? [];
  if (rows.length === 0) return null;
  return (
    <section className={w.popular} aria-labelledby="popular-title">
      <h3 id="popular-title" className={w.popularTitle}>
        {t('watch.popular')}
      </h3>
      <InstrumentPicks label={t('watch.popular')} rows={rows} listName={name} has={has} onToggle={onToggle} />
    </section>
  );
}

function IndexShortcuts({
  indices,
  error,
  stale,
  at,
}: {
  indices: IndexCardData[] | undefined;
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
                <IndexCard index={index} size="compact" />
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
  onMenu,
  handlers,
  onSettled,
}: {
  page: number;
  editing: boolean;
  onDelete: (item: FavouriteItem) => void;
  onMenu: (row: RowInstrument) => void;
  handlers: RowActionHandlers;
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
        <WatchRow
          key={item.stock_code}
          item={item}
          editing={editing}
          onDelete={onDelete}
          onMenu={onMenu}
          handlers={handlers}
        />
      ))}
    </>
  );
}
