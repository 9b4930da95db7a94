import { type CallResult, isTransportFailure } from '#shared/contract/define';
import type { Watchlist } from '#shared/contract/watchlist';
import type { FlushResult, OutboxDeps } from './outbox';
import type { FavouriteOp } from './store/schema';

/**
 * Changes to the named watchlists wait in the favourites' outbox (`favourites.ts`
 * replays it in order): an item added to or removed from a list (sent as `watchlist/add`/`remove`
 * with its list id), and changes to the lists themselves (`watchlist/create`/`rename`/`reorder`/
 * `delete`). A list made on the device has a temporary negative id until its create is answered;
 * the changes queued after it take the server's id in the same write.
 */

/** A named list's change waiting in the outbox (the watchlist screen shows it as pending). */
export interface ListPending {
  list: number;
  symbol: string;
  op: 'add' | 'remove';
  name?: string;
  market?: string;
}

/**
 * A change to the lists themselves waiting in the outbox: the screens show the lists as
 * the server last answered with these applied in order (`overlayLists`), marked pending.
 */
export type ListChange =
  | { op: 'create'; list: number; name: string }
  | { op: 'rename'; list: number; name: string; was?: string }
  | { op: 'reorder'; ids: number[] }
  | { op: 'delete'; list: number; was?: string };

/** Everything of the named lists still waiting, oldest first, and the lists made meanwhile. */
export interface ListOutbox {
  items: ListPending[];
  lists: ListChange[];
  /** Temporary ids of lists this device made, by the server's id once acknowledged. */
  made: Record<number, number>;
}

/** The messages of a refused list change, by op (locales/<lang>/watch.json). */
export const LIST_REFUSED = {
  create: 'watch.lists.refused.create',
  rename: 'watch.lists.refused.rename',
  reorder: 'watch.lists.refused.reorder',
  delete: 'watch.lists.refused.delete',
} as const;
const LIST_OPS = new Set<string>(['create', 'rename', 'reorder', 'delete']);
export const isListOp = (op: FavouriteOp) => LIST_OPS.has(op.op);

export interface ListsOutboxOptions extends OutboxDeps {
  /** A refused change to a list: what it was (an i18n key), its values, and why. */
  notifyList?: (key: string, params: Record<string, string>, reason: string) => void;
  /** Replays the whole outbox (the favourites' flush: one replay, in order, for both). */
  flush: () => Promise<FlushResult>;
}

export function createListsOutbox(opts: ListsOutboxOptions) {
  const { device, now } = opts;
  /** Lists made on this device: temporary id → the server's (for screens that still name the first). */
  const made = new Map<number, number>();

  /**
   * Sends one change to the lists. Acknowledged or refused, it leaves the outbox; a transport
   * failure keeps it for the next replay ('retry'). A create's answer gives the list its server id,
   * which the changes queued after it (items, rename, reorder, delete) take in the same write.
   */
  async function replayList(op: FavouriteOp, epoch: number): Promise<FlushResult | null> {
    const id = op.list ?? 0;
    let result: CallResult<unknown>;
    if (op.op === 'create') result = await opts.send('watchlistCreate', { name: op.name ?? '' });
    else if (op.op === 'rename') result = await opts.send('watchlistRename', { id, name: op.name ?? '' });
    else if (op.op === 'reorder') result = await opts.send('watchlistReorder', { ids: op.ids ?? [] });
    else result = await opts.send('watchlistDelete', { id });
    if (!result.ok && result.status === 401) return 'ended';
    if (!result.ok && isTransportFailure(result.error)) {
      await device.write(epoch, (db) => db.favouriteOps.update(op.id!, { attempts: op.attempts + 1 }));
      return 'retry';
    }
    // Sent before and its answer lost: the list is there already (create) or gone already (delete).
    if (!result.ok && op.op === 'create' && op.attempts > 0 && result.error === 'errors.watchlistNameTaken') {
      const all = await opts.send('watchlistLists', {});
      const same = all.ok
        ? (all.data as { rows: Watchlist[] }).rows.find(
            (l) => l.name?.toLowerCase() === op.name?.toLowerCase(),
          )
        : undefined;
      if (same) result = { ok: true, data: same };
      else if (!all.ok && isTransportFailure(all.error)) return 'retry';
    }
    if (!result.ok && op.op === 'delete' && result.error === 'errors.notFound')
      result = { ok: true, data: null };

    const real = result.ok && op.op === 'create' ? (result.data as Watchlist).id : null;
    // Known before the write, so the screens' next look at the outbox (liveQuery) has it.
    if (real !== null) made.set(id, real);
    await device.write(epoch, (db) =>
      db.transaction('rw', db.favouriteOps, async () => {
        // A list deleted on this device while its create was on its way: delete it on the server too.
        const dropped = op.op === 'create' && !(await db.favouriteOps.get(op.id!));
        await db.favouriteOps.delete(op.id!);
        if (dropped && real !== null)
          await db.favouriteOps.add({ op: 'delete', symbol: '', list: real, at: now(), attempts: 0 });
        if (op.op !== 'create' || dropped) return;
        const later = await db.favouriteOps.where('id').above(op.id!).toArray();
        for (const o of later) {
          if (real === null && o.list === id) await db.favouriteOps.delete(o.id!);
          else if (o.list === id) await db.favouriteOps.update(o.id!, { list: real! });
          else if (o.ids?.includes(id))
            await db.favouriteOps.update(o.id!, {
              ids: real === null ? o.ids.filter((x) => x !== id) : o.ids.map((x) => (x === id ? real : x)),
            });
        }
      }),
    );
    if (!result.ok) {
      const name = op.op === 'create' ? op.name : op.was;
      const params: Record<string, string> = {};
      if (name !== undefined) params.name = name;
      if (op.op === 'rename' && op.name !== undefined) params.to = op.name;
      opts.notifyList?.(LIST_REFUSED[op.op as keyof typeof LIST_REFUSED], params, result.error);
    }
    return null;
  }

  /**
   * A change to a named watchlist: queued like a favourite (sent now when online, replayed in
   * order after an offline spell). Without a device store it is sent at once or not at all.
   */
  async function listToggle(
    list: number,
    symbol: string,
    on: boolean,
    meta: { name?: string; market?: string } = {},
  ): Promise<'done' | 'offline' | 'retry' | 'ended' | 'failed'> {
    const epoch = device.epoch();
    const kept = await device.write(epoch, (db) =>
      db.favouriteOps.add({ op: on ? 'add' : 'remove', symbol, list, at: now(), attempts: 0, ...meta }),
    );
    if (kept || epoch !== device.epoch()) return opts.flush();
    if (!opts.online()) return 'failed';
    const result = await opts.send(on ? 'watchlistAdd' : 'watchlistRemove', { id: list, symbol });
    return result.ok ? 'done' : 'failed';
  }

  /** The named lists' changes still waiting, oldest first. */
  const listPending = () =>
    device.read(
      async (db) =>
        (await db.favouriteOps.orderBy('id').toArray())
          .filter((o) => o.list !== undefined && !isListOp(o))
          .map(
            (o): ListPending => ({
              list: o.list!,
              symbol: o.symbol,
              op: o.op as ListPending['op'],
              name: o.name,
              market: o.market,
            }),
          ),
      [] as ListPending[],
    );

  type ListOutcome = 'done' | 'offline' | 'retry' | 'ended' | 'failed';

  /**
   * Queues a change to the lists like a favourite: kept on the device and shown at once,
   * sent now when online, replayed in order after an offline spell. Without a device store it is
   * sent at once or not at all ('failed').
   */
  async function queueList(
    op: Omit<FavouriteOp, 'id' | 'symbol' | 'at' | 'attempts'>,
    direct: () => Promise<CallResult<unknown>>,
  ): Promise<{ outcome: ListOutcome; id?: number; error?: string }> {
    const epoch = device.epoch();
    let id = op.list;
    const kept = await device.write(epoch, (db) =>
      db.transaction('rw', db.favouriteOps, async () => {
        const opId = await db.favouriteOps.add({ ...op, symbol: '', at: now(), attempts: 0 });
        if (op.op === 'create') {
          id = -opId;
          await db.favouriteOps.update(opId, { list: id });
        }
      }),
    );
    if (kept || epoch !== device.epoch()) return { outcome: await opts.flush(), id };
    if (!opts.online()) return { outcome: 'failed', error: 'errors.offline' };
    const result = await direct();
    if (!result.ok) return { outcome: 'failed', error: result.error };
    return { outcome: 'done', id: op.op === 'create' ? (result.data as Watchlist).id : id };
  }

  /** A new list; its id is temporary (negative) until the server acknowledged it. */
  const listCreate = (name: string) =>
    queueList({ op: 'create', list: 0, name }, () => opts.send('watchlistCreate', { name }));

  const listRename = (list: number, name: string, was?: string) =>
    queueList({ op: 'rename', list, name, was }, () => opts.send('watchlistRename', { id: list, name }));

  const listReorder = (ids: number[]) =>
    queueList({ op: 'reorder', list: 0, ids }, () => opts.send('watchlistReorder', { ids }));

  /**
   * Deletes a list. Its changes still waiting go (they would be refused); a list made on this
   * device and not yet sent is simply forgotten, nothing is sent for it.
   */
  async function listDelete(list: number, was?: string) {
    const epoch = device.epoch();
    await device.write(epoch, (db) =>
      db.transaction('rw', db.favouriteOps, async () => {
        for (const o of await db.favouriteOps.toArray()) {
          if (o.list === list) await db.favouriteOps.delete(o.id!);
          else if (list < 0 && o.ids?.includes(list))
            await db.favouriteOps.update(o.id!, { ids: o.ids.filter((x) => x !== list) });
        }
      }),
    );
    if (list < 0) return { outcome: 'done' as ListOutcome, id: list };
    return queueList({ op: 'delete', list, was }, () => opts.send('watchlistDelete', { id: list }));
  }

  /** The named lists' waiting changes (items and the lists themselves) and the lists made since. */
  const listOutbox = async (): Promise<ListOutbox> => {
    const ops = await device.read((db) => db.favouriteOps.orderBy('id').toArray(), [] as FavouriteOp[]);
    const lists: ListChange[] = [];
    for (const o of ops) {
      if (o.op === 'create') lists.push({ op: 'create', list: o.list!, name: o.name ?? '' });
      else if (o.op === 'rename') lists.push({ op: 'rename', list: o.list!, name: o.name ?? '', was: o.was });
      else if (o.op === 'reorder') lists.push({ op: 'reorder', ids: o.ids ?? [] });
      else if (o.op === 'delete') lists.push({ op: 'delete', list: o.list!, was: o.was });
    }
    return { items: await listPending(), lists, made: Object.fromEntries(made) };
  };

  return {
    replayList,
    listToggle,
    listPending,
    listCreate,
    listRename,
    listReorder,
    listDelete,
    listOutbox,
  };
}
