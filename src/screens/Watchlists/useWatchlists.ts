import { useCallback, useState } from 'react';
import { call, worker } from '../../api/client';
import { type FavouriteItem, useFavourites } from '../../api/favourites';
import { useWatch } from '../../api/hooks';
import { useOnline } from '../../api/useOnline';
import { displayCode, PAGE_SIZE, POLL_MS } from '../../shared/rules';
import { toast } from '../../store/ui';
import { usePages } from '../../ui';

/**
 * The watchlist (SPEC §2): index shortcuts, favourites paged by 10 with live prices, and edit mode.
 * A delete asks first; online it is the server's delete-by-code (SPEC §8: 'delete failed, try again
 * later' when refused); offline, or for a change the server has not confirmed yet, it goes through
 * the favourites outbox and shows as pending sync until it has.
 */
export function useWatchlists() {
  const indices = useWatch('indexList', {}, POLL_MS.indexCard);
  const first = useFavourites(1, PAGE_SIZE, POLL_MS.prices);
  const paging = usePages('favourites');
  const online = useOnline();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<FavouriteItem | null>(null);
  const [deleting, setDeleting] = useState(false);

  const { reload } = first;
  const { pages } = paging;
  const reloadAll = useCallback(() => {
    reload();
    for (let page = 2; page <= pages; page++)
      void worker().refresh('favouriteList', { page, pageSize: PAGE_SIZE });
  }, [reload, pages]);

  async function remove(item: FavouriteItem) {
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

  const hasMore = paging.pages * PAGE_SIZE < first.total;
  return {
    indices,
    first,
    paging,
    hasMore,
    editing,
    setEditing,
    confirming,
    setConfirming,
    deleting,
    remove,
  };
}
