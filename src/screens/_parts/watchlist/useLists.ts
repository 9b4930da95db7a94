import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ListChange, ListOutbox, ListPending } from '../../../../workers/lists-outbox';
import { listen, worker } from '../../../api/client';
import { useWatch } from '../../../api/hooks';
import type { Watchlist } from '../../../shared/contract/watchlist';
import { WATCHLIST_MAX_LISTS } from '../../../shared/rules';
import { toast } from '../../../store/ui';

/** A list as the screens show it: the server's, with this device's waiting change marked. */
export interface ListRow extends Watchlist {
  /** A change made on this device that the server has not acknowledged yet. */
  pending: 'create' | 'rename' | 'delete' | null;
}

const NO_OUTBOX: ListOutbox = { items: [], lists: [], made: {} };

/** Names as the server compares them: spaces collapsed, trimmed, case ignored. */
const sameName = (a: string | null, b: string) =>
  a !== null && a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The caller's named watchlists (the first is the default "Favourites", SPEC's favourite calls)
 * and the changes to them. Every change (create, rename, reorder, delete) goes through the
 * worker's outbox like a favourite: shown at once, marked pending, sent in order when the server
 * can be reached; a refusal is undone (the change leaves the outbox, the server's lists are read
 * again) and the worker says why in the user's language. The limits are checked here as well.
 */
export function useLists() {
  const lists = useWatch('watchlistLists', {}, 0);
  const [outbox, setOutbox] = useState<ListOutbox>(NO_OUTBOX);
  const [busy, setBusy] = useState(false);
  const { reload } = lists;

  useEffect(() => listen('lists', setOutbox), []);
  // A change left the outbox (acknowledged or refused): the server's lists are the truth again.
  const waiting = outbox.lists.length;
  const before = useRef(waiting);
  useEffect(() => {
    if (waiting < before.current) reload();
    before.current = waiting;
  }, [waiting, reload]);

  const view = useMemo(
    () => overlayLists(lists.data?.rows ?? [], outbox.lists, outbox.items),
    [lists.data, outbox],
  );
  const rows = useMemo(() => view.rows.filter((r) => r.pending !== 'delete'), [view]);

  const run = useCallback(
    async (send: () => Promise<{ outcome: string; id?: number; error?: string }>) => {
      setBusy(true);
      const result = await send();
      setBusy(false);
      if (result.outcome === 'failed') {
        toast(result.error ?? 'errors.generic', 'error');
        return null;
      }
      if (result.outcome === 'done') reload();
      else toast('watch.queued', 'info');
      return { id: result.id ?? 0 };
    },
    [reload],
  );

  /** The local checks of a name (the server checks them again). */
  const nameProblem = (name: string, except?: number) =>
    rows.some((r) => r.id !== except && sameName(r.name, name)) ? 'errors.watchlistNameTaken' : null;

  return {
    lists,
    /** The lists shown (a list waiting to be deleted is gone already), in their order. */
    rows,
    /** Every list, with those waiting to be deleted (the manage sheet shows them as pending). */
    all: view.rows,
    /** A new order waits to be sent. */
    orderPending: view.orderPending,
    /** The named lists' waiting item changes. */
    items: outbox.items,
    /** The server's id of a list made on this device under a temporary id, once acknowledged. */
    made: outbox.made,
    busy,
    create: (name: string) => {
      if (rows.length >= WATCHLIST_MAX_LISTS) {
        toast('errors.watchlistLimit', 'error');
        return Promise.resolve(null);
      }
      const problem = nameProblem(name);
      if (problem) {
        toast(problem, 'error');
        return Promise.resolve(null);
      }
      return run(() => worker().createList(name));
    },
    rename: (id: number, name: string) => {
      const problem = nameProblem(name, id);
      if (problem) {
        toast(problem, 'error');
        return Promise.resolve(null);
      }
      const was = rows.find((r) => r.id === id)?.name ?? undefined;
      return run(() => worker().renameList(id, name, was));
    },
    reorder: (ids: number[]) => run(() => worker().reorderLists(ids)),
    remove: (id: number) => {
      const was = rows.find((r) => r.id === id)?.name ?? undefined;
      return run(() => worker().deleteList(id, was));
    },
  };
}

/**
 * The server's lists with this device's waiting changes applied in order: a new list at the end
 * (its count: its waiting adds), a new name, a new order, a deletion marked.
 */
export function overlayLists(
  server: Watchlist[],
  changes: ListChange[],
  items: ListPending[] = [],
): { rows: ListRow[]; orderPending: boolean } {
  let rows: ListRow[] = server.map((r) => ({ ...r, pending: null }));
  let orderPending = false;
  for (const c of changes) {
    if (c.op === 'create')
      rows.push({
        id: c.list,
        name: c.name,
        is_default: false,
        count: 0,
        position: rows.length,
        pending: 'create',
      });
    else if (c.op === 'rename')
      rows = rows.map((r) => (r.id === c.list ? { ...r, name: c.name, pending: r.pending ?? 'rename' } : r));
    else if (c.op === 'delete') rows = rows.map((r) => (r.id === c.list ? { ...r, pending: 'delete' } : r));
    else {
      const at = new Map(c.ids.map((id, i) => [id, i]));
      rows = [...rows].sort((a, b) => (at.get(a.id) ?? at.size) - (at.get(b.id) ?? at.size));
      orderPending = true;
    }
  }
  return {
    rows: rows.map((r, position) => {
      if (r.id >= 0) return { ...r, position };
      const last = new Map<string, ListPending['op']>();
      for (const i of items) if (i.list === r.id) last.set(i.symbol, i.op);
      return { ...r, position, count: [...last.values()].filter((op) => op === 'add').length };
    }),
    orderPending,
  };
}

/** A list's name as shown: the default list is "Favourites" in the user's language. */
export function listName(list: Pick<Watchlist, 'name'>, t: (key: string) => string): string {
  return list.name ?? t('watchlist.favourites');
}
