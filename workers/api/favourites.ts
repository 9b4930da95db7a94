import { liveQuery, type Subscription } from 'dexie';
import type { FavouriteState, ListOutbox, ListPending } from '../favourites';
import type { Context } from './context';

/** The favourites domain: toggles through the outbox; the device's state on the `favourites` topic. */
export function favouritesApi(ctx: Context) {
  let sub: Subscription | null = null;
  ctx.events.on('favourites', {
    initial: () => ctx.favourites.snapshot(),
    first: () => {
      sub = liveQuery(() => ctx.favourites.snapshot()).subscribe({
        next: (map) => ctx.events.emit('favourites', map),
        error: (err) => console.warn('favourites:', err),
      });
    },
    last: () => {
      sub?.unsubscribe();
      sub = null;
    },
  });
  let listsSub: Subscription | null = null;
  ctx.events.on('lists', {
    initial: () => ctx.favourites.listOutbox(),
    first: () => {
      listsSub = liveQuery(() => ctx.favourites.listOutbox()).subscribe({
        next: (outbox) => ctx.events.emit('lists', outbox),
        error: (err) => console.warn('lists:', err),
      });
    },
    last: () => {
      listsSub?.unsubscribe();
      listsSub = null;
    },
  });
  /** A list change through the outbox; the retry timer runs while some wait. */
  const queued = <T>(p: Promise<T>) =>
    p.then((r) => {
      void ctx.flushOutboxes();
      return r;
    });
  return {
    toggleFavourite(
      symbol: string,
      on: boolean,
      meta: { name?: string; market?: string } = {},
    ): Promise<void> {
      return ctx.favourites.toggle(symbol, on, meta).then(() => void ctx.flushOutboxes());
    },
    checkFavourite(symbol: string): Promise<FavouriteState | undefined> {
      return ctx.favourites.check(symbol);
    },
    /** Adds to or removes from a named watchlist through the same outbox (issue 14). */
    toggleListItem(list: number, symbol: string, on: boolean, meta: { name?: string; market?: string } = {}) {
      return ctx.favourites.listToggle(list, symbol, on, meta);
    },
    listPending(): Promise<ListPending[]> {
      return ctx.favourites.listPending();
    },
    /** Lists made, renamed, reordered and deleted through the same outbox (issue 14). */
    createList(name: string) {
      return queued(ctx.favourites.listCreate(name));
    },
    renameList(id: number, name: string, was?: string) {
      return queued(ctx.favourites.listRename(id, name, was));
    },
    reorderLists(ids: number[]) {
      return queued(ctx.favourites.listReorder(ids));
    },
    deleteList(id: number, was?: string) {
      return queued(ctx.favourites.listDelete(id, was));
    },
    listOutbox(): Promise<ListOutbox> {
      return ctx.favourites.listOutbox();
    },
  };
}
