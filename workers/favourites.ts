import { isTransportFailure } from '#shared/contract/define';
import type { WatchlistItem } from '#shared/contract/trading';
import { createListsOutbox, isListOp, type ListsOutboxOptions } from './lists-outbox';
import type { FlushResult, OutboxDeps } from './outbox';
import type { FavouriteRecord } from './store/schema';

/**
 * Favourites work offline (DESIGN rule 6 allows it): a toggle is applied on the device at once,
 * marked pending, and appended to an outbox that is replayed to the server in order when online.
 * Replaying is idempotent — add and remove set a state rather than flip it, and an operation leaves
 * the outbox only after the server confirmed it — so a replay after a crash or from two tabs
 * (serialised by a Web Lock) ends in the same state. Changes to the named watchlists wait in the
 * same outbox (lists-outbox.ts), so one replay sends everything in the order it was made.
 */
export type FavouriteState = Pick<FavouriteRecord, 'on' | 'pending'> & { name?: string; market?: string };

export interface FavouritesOptions extends Omit<OutboxDeps, 'now'>, Pick<ListsOutboxOptions, 'notifyList'> {
  now?: () => number;
  /** A rejected change (the server said no): the i18n key to show. */
  notify?: (key: string, symbol: string) => void;
  /** Serialises replays across tabs (navigator.locks in the browser). */
  lock?: <T>(name: string, fn: () => Promise<T>) => Promise<T>;
}

export const FAVOURITE_FAILED = 'core.favourite.failed';

/** The favourites and their outbox, with the named lists' changes (lists-outbox.ts) replayed in it. */
export function createFavourites(opts: FavouritesOptions) {
  const { device } = opts;
  const now = opts.now ?? Date.now;
  const lock = opts.lock ?? (<T>(_: string, fn: () => Promise<T>) => fn());
  let flushing: Promise<FlushResult> | null = null;
  let again = false;
  const lists = createListsOutbox({ ...opts, now, flush });

  async function toggle(symbol: string, on: boolean, meta: { name?: string; market?: string } = {}) {
    const epoch = device.epoch();
    const kept = await device.write(epoch, (db) =>
      db.transaction('rw', db.favourites, db.favouriteOps, async () => {
        const prev = await db.favourites.get(symbol);
        await db.favourites.put({
          symbol,
          on,
          pending: 1,
          name: meta.name ?? prev?.name,
          market: meta.market ?? prev?.market,
          updatedAt: now(),
        });
        await db.favouriteOps.add({ op: on ? 'add' : 'remove', symbol, at: now(), attempts: 0 });
      }),
    );
    if (kept || epoch !== device.epoch()) return flush();
    // No device store (private mode, storage full): send it now, or tell the user it did not happen.
    if (!opts.online()) {
      opts.notify?.(FAVOURITE_FAILED, symbol);
      return 'offline';
    }
    const result = await opts.send(on ? 'favouriteAdd' : 'favouriteRemove', { symbol });
    if (!result.ok) opts.notify?.(FAVOURITE_FAILED, symbol);
    return result.ok ? 'done' : 'retry';
  }

  /** Replays the outbox in order until it is empty or the network fails. */
  function flush(): Promise<FlushResult> {
    if (!opts.online()) return Promise.resolve('offline');
    if (flushing) {
      // A replay is running and may have looked at the outbox before this change: go again after it.
      again = true;
      return flushing;
    }
    flushing = (async () => {
      let result: FlushResult;
      do {
        again = false;
        result = await lock('bourse-favourites-outbox', replay);
      } while (again && result === 'done');
      return result;
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  async function replay(): Promise<FlushResult> {
    for (;;) {
      const epoch = device.epoch();
      const op = await device.read((db) => db.favouriteOps.orderBy('id').first(), undefined);
      if (!op) return 'done';
      if (!opts.online()) return 'offline';
      if (isListOp(op)) {
        const outcome = await lists.replayList(op, epoch);
        if (outcome) return outcome;
        continue;
      }
      const result =
        op.list === undefined
          ? await opts.send(op.op === 'add' ? 'favouriteAdd' : 'favouriteRemove', { symbol: op.symbol })
          : await opts.send(op.op === 'add' ? 'watchlistAdd' : 'watchlistRemove', {
              id: op.list,
              symbol: op.symbol,
            });
      if (!result.ok && result.status === 401) return 'ended';
      if (!result.ok && isTransportFailure(result.error)) {
        await device.write(epoch, (db) => db.favouriteOps.update(op.id!, { attempts: op.attempts + 1 }));
        return 'retry';
      }
      await device.write(epoch, (db) =>
        db.transaction('rw', db.favourites, db.favouriteOps, async () => {
          await db.favouriteOps.delete(op.id!);
          if (op.list !== undefined) return;
          const left = await db.favouriteOps
            .where('symbol')
            .equals(op.symbol)
            .filter((o) => o.list === undefined)
            .count();
          if (left === 0) await db.favourites.update(op.symbol, { pending: 0 });
        }),
      );
      if (!result.ok && op.list !== undefined) {
        // A named list refused it (full, deleted, unknown symbol): the list shows the server's truth.
        opts.notify?.(FAVOURITE_FAILED, op.symbol);
      } else if (!result.ok) {
        // The server refused (e.g. an unknown symbol): show its truth, tell the user.
        opts.notify?.(FAVOURITE_FAILED, op.symbol);
        await check(op.symbol, true);
      }
    }
  }

  /** The server's answer for one symbol, unless a change of it is still waiting to be sent. */
  async function check(symbol: string, force = false): Promise<FavouriteState | undefined> {
    const epoch = device.epoch();
    const local = await device.read((db) => db.favourites.get(symbol), undefined);
    if (local?.pending && !force) return local;
    if (!opts.online()) return local;
    const result = await opts.send('favouriteCheck', { symbol });
    if (!result.ok) return local;
    const on = (result.data as { collected: boolean }).collected;
    let state: FavouriteState | undefined = local;
    await device.write(epoch, (db) =>
      db.transaction('rw', db.favourites, db.favouriteOps, async () => {
        const pending = await db.favouriteOps
          .where('symbol')
          .equals(symbol)
          .filter((o) => o.list === undefined)
          .count();
        const row = await db.favourites.get(symbol);
        // A toggle made while the check was on its way wins.
        if (pending > 0) {
          state = row;
          return;
        }
        state = { on, pending: 0, name: row?.name, market: row?.market };
        await db.favourites.put({ ...row, symbol, on, pending: 0, updatedAt: now() });
      }),
    );
    return state;
  }

  /**
   * Learns from a watchlist answer: the listed symbols are favourites; when the answer is the whole
   * list (first page holding every item), any other confirmed favourite is not.
   */
  async function learn(list: WatchlistItem[], total: number, page = 1): Promise<void> {
    const epoch = device.epoch();
    const complete = page === 1 && list.length >= total;
    const listed = new Set(list.map((i) => i.stock_code));
    await device.write(epoch, (db) =>
      db.transaction('rw', db.favourites, async () => {
        const rows = await db.favourites.toArray();
        const bySymbol = new Map(rows.map((r) => [r.symbol, r]));
        const puts: FavouriteRecord[] = [];
        for (const item of list) {
          const row = bySymbol.get(item.stock_code);
          if (row?.pending) continue;
          if (row?.on && row.name === item.stock_name) continue;
          puts.push({
            symbol: item.stock_code,
            on: true,
            pending: 0,
            name: item.stock_name,
            market: item.stock_detail?.market,
            updatedAt: now(),
          });
        }
        if (complete) {
          for (const row of rows) {
            if (!row.pending && row.on && !listed.has(row.symbol))
              puts.push({ ...row, on: false, updatedAt: now() });
          }
        }
        if (puts.length) await db.favourites.bulkPut(puts);
      }),
    );
  }

  const pendingCount = () => device.read((db) => db.favouriteOps.count(), 0);

  const { replayList: _, ...listChanges } = lists;
  return { toggle, flush, check, learn, pendingCount, ...listChanges };
}
