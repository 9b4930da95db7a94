import { liveQuery, type Subscription } from 'dexie';
import type { FavouriteState, ListPending } from '../favourites';
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
  };
}
