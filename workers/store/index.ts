import { DB_NAME, DeviceDb } from './schema';

export * from './schema';

/**
 * Opens the device store. Opening is lazy (the first query opens it) and failure-tolerant: a
 * browser without IndexedDB, private mode, or a database written by a newer version of the app
 * (an old tab after an update) leaves the app working online, without the device store.
 */
export function openDevice(name = DB_NAME): DeviceDb {
  const db = new DeviceDb(name);
  // Another tab upgraded the schema: let it, and stop using the old connection.
  db.on('versionchange', () => {
    db.close();
    return false;
  });
  return db;
}

/** Removes everything: called on logout and on a session the server ended, online or not. */
export async function wipeDevice(db: DeviceDb): Promise<void> {
  await db.transaction('rw', db.tables, async () => {
    await Promise.all(db.tables.map((t) => t.clear()));
  });
}
