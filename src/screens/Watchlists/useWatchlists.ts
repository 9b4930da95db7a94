import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ListPending } from '../../../workers/lists-outbox';
import { call, worker } from '../../api/client';
import { useOnline } from '../../api/connection';
import { useWatch } from '../../api/hooks';
import { type FavouriteItem, pendingAdd, useFavourites } from '../../device/favourites';
import type { WatchlistItem } from '../../shared/contract/trading';
import { displayCode, PAGE_SIZE, POLL_MS, WATCHLIST_MAX_ITEMS } from '../../shared/rules';
import { toast } from '../../store/ui';
import { usePages } from '../../ui';
import { useLists } from '../_parts/watchlist/useLists';

/** A row asked to be removed: from the default list (favourites) or a named one. */
export interface Removal {
  item: FavouriteItem;
  list: number | null;
}

/**
 * The watchlists (SPEC §2, and more): index shortcuts, the user's named lists (the first is
 * Favourites, SPEC's favourites paged by 10; the others hold at most 50 and load as one page), the
 * selected one in the address (?list=), edit mode and removal. A favourite's delete online is the
 * server's delete-by-code (SPEC §8: 'delete failed, try again later' when refused); offline, or for
 * a change the server has not confirmed yet, it goes through the favourites outbox and shows as
 * pending sync until it has.
 */
export function useWatchlists() {
  const indices = useWatch('indexList', {}, POLL_MS.indexCard);
  const lists = useLists();
  const [params, setParams] = useSearchParams();
  // A list made on this device is named by its temporary id until the server's id is known.
  const asked = Number(params.get('list'));
  const wanted = lists.made[asked] ?? asked;
  const selected = lists.rows.find((l) => l.id === wanted) ?? lists.rows[0] ?? null;
  const named = selected && !selected.is_default ? selected.id : null;

  const first = useFavourites(1, PAGE_SIZE, POLL_MS.prices);
  const paging = usePages('favourites');
  const namedWatch = useWatch(
    'watchlistItems',
    // A list not yet on the server has only this device's waiting adds.
    named === null || named < 0 ? null : { id: named, page: 1, limit: WATCHLIST_MAX_ITEMS },
    POLL_MS.prices,
  );
  // A list made on this device and not yet acknowledged: nothing to load, only its waiting adds.
  const namedItems =
    named !== null && named < 0
      ? { ...namedWatch, data: NO_ITEMS, error: null, loading: false, stale: false, updatedAt: null }
      : namedWatch;
  const online = useOnline();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<Removal | null>(null);
  const [deleting, setDeleting] = useState(false);

  const select = (id: number) =>
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        out.set('list', String(id));
        return out;
      },
      { replace: true },
    );

  const { reload } = first;
  const { pages } = paging;
  const reloadNamed = namedItems.reload;
  const reloadLists = lists.lists.reload;
  const reloadAll = useCallback(() => {
    reload();
    reloadNamed();
    lists.lists.reload();
    for (let page = 2; page <= pages; page++)
      void worker().refresh('favouriteList', { page, pageSize: PAGE_SIZE });
  }, [reload, reloadNamed, lists.lists.reload, pages]);

  async function removeFavourite(item: FavouriteItem) {
    if (!online || item.pending !== null) {
      await worker().toggleFavourite(item.stock_code, false, {
        name: item.stock_name,
        market: item.stock_detail.market,
      });
      setConfirming(null);
      return;
    }
    setDeleting(true);
    const result = await call('favouriteDelete', { code: item.stock_code });
    setDeleting(false);
    if (!result.ok) {
      toast('watchlist.deleteFailed', 'error');
      return;
    }
    setConfirming(null);
    toast('watchlist.deleted', 'success', { code: displayCode(item.stock_code) });
    reloadAll();
  }

  /**
   * A named list's change goes through the worker's outbox, like a favourite: sent at once when
   * online, otherwise kept on the device (shown as pending) and sent when the connection is back.
   */
  async function changeNamed(
    list: number,
    symbol: string,
    on: boolean,
    meta: { name: string; market: string },
  ) {
    if (on && namedRows.filter((r) => r.pending !== 'remove').length >= WATCHLIST_MAX_ITEMS) {
      toast('errors.watchlistFull', 'error');
      return false;
    }
    const outcome = await worker().toggleListItem(list, symbol, on, meta);
    if (outcome === 'failed') {
      toast('watch.offline', 'error');
      return false;
    }
    if (outcome === 'done') reloadAll();
    else toast('watch.queued', 'info');
    return true;
  }

  async function remove({ item, list }: Removal) {
    if (list === null) return removeFavourite(item);
    setDeleting(true);
    const ok = await changeNamed(list, item.stock_code, false, {
      name: item.stock_name,
      market: item.stock_detail.market,
    });
    setDeleting(false);
    if (!ok) return;
    setConfirming(null);
    toast('watchlist.deleted', 'success', { code: displayCode(item.stock_code) });
  }

  /** Adds to or removes from the selected list (search results, popular instruments). */
  async function toggle(symbol: string, on: boolean, meta: { name: string; market: string }) {
    if (named === null) {
      await worker().toggleFavourite(symbol, on, meta);
      return;
    }
    if ((await changeNamed(named, symbol, on, meta)) && on)
      toast('watch.added', 'success', { code: displayCode(symbol) });
  }

  // The outbox's changes to named lists (pushed by the worker); when some left it, the list is read again.
  const pending = lists.items;
  const waiting = pending.length;
  const before = useRef(waiting);
  useEffect(() => {
    if (waiting < before.current) {
      reloadNamed();
      reloadLists();
    }
    before.current = waiting;
  }, [waiting, reloadNamed, reloadLists]);

  const namedRows = useMemo(
    () =>
      overlayNamed(
        namedItems.data?.list ?? [],
        named === null ? [] : pending.filter((p) => p.list === named),
      ),
    [namedItems.data, pending, named],
  );
  const hasMore = named === null && paging.pages * PAGE_SIZE < first.total;
  return {
    indices,
    lists,
    selected,
    named,
    select,
    first,
    namedItems,
    namedRows,
    paging,
    hasMore,
    editing,
    setEditing,
    confirming,
    setConfirming,
    deleting,
    remove,
    toggle,
    reloadAll,
  };
}

const NO_ITEMS = { list: [] as WatchlistItem[], total: 0 };

/** A named list's rows with this device's waiting changes: pending adds first, removals marked. */
function overlayNamed(list: WatchlistItem[], pending: ListPending[]): FavouriteItem[] {
  const last = new Map<string, ListPending>();
  for (const p of pending) last.set(p.symbol, p);
  const listed = new Set(list.map((i) => i.stock_code));
  const adds: FavouriteItem[] = [...last.values()]
    .filter((p) => p.op === 'add' && !listed.has(p.symbol))
    .map((p) => pendingAdd(p.symbol, p.name, p.market));
  const rows = list.map(
    (item): FavouriteItem => ({
      ...item,
      pending: last.get(item.stock_code)?.op === 'remove' ? 'remove' : null,
    }),
  );
  return [...adds, ...rows];
}
