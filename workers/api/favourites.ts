import type { Subscription } from 'dexie';
import type { Topic, WorkerEvents } from '../events';
import type { FavouriteState } from '../favourites';
import type { ListOutbox, ListPending } from '../lists-outbox';
import type { Context } from './context';

/**
 * The favourites domain: toggles through the outbox. Screens read the favourites and their pending
 * marks from the device store themselves (src/device/); the named lists' outbox, which includes
 * what only this worker knows (`made`), is pushed on the `lists` topic.
 */
export function favouritesApi(ctx: Context) {
  /** A topic fed by a live query of the device store: the query runs while someone listens. */
  const liveTopic = <K extends Topic>(topic: K, read: () => Promise<WorkerEvents[K]>) => {
    let sub: Subscription | null = null;
    let listened = false;
    ctx.events.on(topic, {
      initial: read,
      first: () => {
        listened = true;
        // Dexie loads with the store (workers/device.ts); the query starts once the store is open,
        // so it runs in its own zone and sees what it reads. The last listener may leave before.
        void Promise.all([import('dexie'), ctx.device.db()]).then(
          ([{ liveQuery }]) => {
            if (!listened || sub) return;
            sub = liveQuery(read).subscribe({
              next: (value) => ctx.events.emit(topic, value),
              error: (err) => console.warn(`${topic}:`, err),
            });
          },
          (err: unknown) => console.warn(`${topic}:`, err),
        );
      },
      last: () => {
        listened = false;
        sub?.unsubscribe();
        sub = null;
      },
    });
  };
  liveTopic('lists', () => ctx.favourites.listOutbox());
  // Every page of favourites the server answers is the device's copy of the list.
  ctx.onAnswer('favouriteList', (input, data) =>
    ctx.favourites.learn(data.list, data.total, input.page ?? 1),
  );
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
    /** Adds to or removes from a named watchlist through the same outbox. */
    toggleListItem(list: number, symbol: string, on: boolean, meta: { name?: string; market?: string } = {}) {
      return ctx.favourites.listToggle(list, symbol, on, meta);
    },
    listPending(): Promise<ListPending[]> {
      return ctx.favourites.listPending();
    },
    /** Lists made, renamed, reordered and deleted through the same outbox. */
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
