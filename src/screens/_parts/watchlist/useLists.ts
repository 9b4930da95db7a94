import { useCallback, useState } from 'react';
import { call } from '../../../api/client';
import { useWatch } from '../../../api/hooks';
import type { Watchlist } from '../../../shared/contract/watchlist';
import { toast } from '../../../store/ui';

/**
 * The caller's named watchlists (the first is the default "Favourites", SPEC's favourite calls)
 * and the calls that change them. Each change reloads the lists; a refusal is shown as the
 * server's message.
 */
export function useLists() {
  const lists = useWatch('watchlistLists', {}, 0);
  const [busy, setBusy] = useState(false);
  const { reload } = lists;

  const run = useCallback(
    async <T>(send: () => Promise<{ ok: true; data: T } | { ok: false; error: string }>) => {
      setBusy(true);
      const result = await send();
      setBusy(false);
      if (!result.ok) {
        toast(result.error, 'error');
        return null;
      }
      reload();
      return result.data;
    },
    [reload],
  );

  return {
    lists,
    rows: lists.data?.rows ?? [],
    busy,
    create: (name: string) => run(() => call('watchlistCreate', { name })),
    rename: (id: number, name: string) => run(() => call('watchlistRename', { id, name })),
    reorder: (ids: number[]) => run(() => call('watchlistReorder', { ids })),
    remove: (id: number) => run(() => call('watchlistDelete', { id })),
  };
}

/** A list's name as shown: the default list is "Favourites" in the user's language. */
export function listName(list: Pick<Watchlist, 'name'>, t: (key: string) => string): string {
  return list.name ?? t('watchlist.favourites');
}
