import { type DeviceDb, openDevice, wipeDevice } from './store/index';

/**
 * The worker's handle on the device store. Every read and write is failure-tolerant (no
 * IndexedDB, a closed or newer database: the app keeps working online), and every write is
 * tied to the session "epoch": once the device is wiped, an answer that was in flight before the
 * wipe can no longer write the old user's data back.
 */
export interface Device {
  db(): DeviceDb;
  /** Increases on every wipe. */
  epoch(): number;
  /** Runs a read; on any failure answers `fallback`. */
  read<T>(fn: (db: DeviceDb) => Promise<T>, fallback: T): Promise<T>;
  /** Runs a write unless the device was wiped since `epoch`; true when it was written. */
  write(epoch: number, fn: (db: DeviceDb) => Promise<unknown>): Promise<boolean>;
  wipe(): Promise<void>;
}

export function createDevice(name?: string, onError: (err: unknown) => void = () => {}): Device {
  let instance: DeviceDb | null = null;
  let epoch = 0;
  const db = () => {
    instance ??= openDevice(name);
    return instance;
  };
  return {
    db,
    epoch: () => epoch,
    async read(fn, fallback) {
      try {
        return await fn(db());
      } catch (err) {
        onError(err);
        return fallback;
      }
    },
    async write(at, fn) {
      if (at !== epoch) return false;
      try {
        await fn(db());
        return true;
      } catch (err) {
        onError(err);
        return false;
      }
    },
    async wipe() {
      epoch += 1;
      try {
        await wipeDevice(db());
      } catch (err) {
        onError(err);
        // A store that cannot be cleared is deleted outright.
        try {
          db().close();
          await openDevice(name).delete();
        } catch (again) {
          onError(again);
        }
        instance = null;
      }
    },
  };
}
