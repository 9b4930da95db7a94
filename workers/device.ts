import type { DeviceDb } from './store/index';

/**
 * The worker's handle on the device store. Every read and write is failure-tolerant (no
 * IndexedDB, a closed or newer database: the app keeps working online), and every write is
 * tied to the session "epoch": once the device is wiped, an answer that was in flight before the
 * wipe can no longer write the old user's data back.
 *
 * The store's code (Dexie, half the worker's bytes) is a chunk of its own, loaded by the first
 * read or write: the worker's first requests, which do not wait for the device, no longer wait for
 * it to download either (a signed-in start on a slow network: the worker's script was the last
 * file before the first data).
 */
export interface Device {
  db(): Promise<DeviceDb>;
  /** Increases on every wipe. */
  epoch(): number;
  /** Runs a read; on any failure answers `fallback`. */
  read<T>(fn: (db: DeviceDb) => Promise<T>, fallback: T): Promise<T>;
  /** Runs a write unless the device was wiped since `epoch`; true when it was written. */
  write(epoch: number, fn: (db: DeviceDb) => Promise<unknown>): Promise<boolean>;
  wipe(): Promise<void>;
}

export function createDevice(name?: string, onError: (err: unknown) => void = () => {}): Device {
  let instance: Promise<DeviceDb> | null = null;
  /**
   * The store once opened. A read runs its query at once on it, not after an await: Dexie's live
   * queries (workers/api/favourites.ts) learn which tables to watch only from queries made in
   * their own zone, which an await of another promise would leave.
   */
  let opened: DeviceDb | null = null;
  let epoch = 0;
  // Dexie is in the store's chunk (vite.config.ts): one file, not a second round trip after it.
  const store = () => import('./store/index');
  const db = () => {
    instance ??= store().then(
      ({ openDevice }) => {
        opened = openDevice(name);
        return opened;
      },
      (err: unknown) => {
        // Its download failed (offline before the app was cached): the next use tries again.
        instance = null;
        throw err;
      },
    );
    return instance;
  };
  return {
    db,
    epoch: () => epoch,
    async read(fn, fallback) {
      try {
        return await fn(opened ?? (await db()));
      } catch (err) {
        onError(err);
        return fallback;
      }
    },
    async write(at, fn) {
      if (at !== epoch) return false;
      try {
        const target = opened ?? (await db());
        // Wiped while the store's code was on its way: the write belongs to the old session.
        if (at !== epoch) return false;
        await fn(target);
        return true;
      } catch (err) {
        onError(err);
        return false;
      }
    },
    async wipe() {
      epoch += 1;
      try {
        const { wipeDevice } = await store();
        await wipeDevice(await db());
      } catch (err) {
        onError(err);
        // A store that cannot be cleared is deleted outright.
        try {
          const { openDevice } = await store();
          (await db()).close();
          await openDevice(name).delete();
        } catch (again) {
          onError(again);
        }
        instance = null;
        opened = null;
      }
    },
  };
}
