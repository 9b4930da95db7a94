import Dexie, { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { createDevice } from '../../workers/device';
import { CURRENT_VERSION, DeviceDb, VERSIONS } from '../../workers/store/schema';
import { freshDeviceName } from '../support/device';

/** The device store's schema history: fresh installs, upgrades from every version, wipe, a newer database. */
const freshName = () => freshDeviceName('test-db');

describe('device store schema', () => {
  it('a fresh install opens at the current version with every table', async () => {
    const db = new DeviceDb(freshName());
    await db.open();
    expect(db.verno).toBe(CURRENT_VERSION);
    expect(db.tables.map((t) => t.name).sort()).toEqual(
      [
        'answers',
        'candles',
        'favouriteOps',
        'favourites',
        'messages',
        'meta',
        'moneyCalls',
        'pendingMessages',
        'quotes',
      ].sort(),
    );
    db.close();
  });

  it('upgrades a version 1 database: data kept, public answers owned by nobody, private ones dropped', async () => {
    const name = freshName();
    const v1 = new DeviceDb(name, VERSIONS.slice(0, 1));
    await v1.open();
    await v1.quotes.put({ symbol: 'AAPL', price: 190.5, asOf: 1000 });
    await v1.favourites.put({ symbol: 'AAPL', on: true, pending: 1, updatedAt: 1 });
    await v1.favouriteOps.add({ op: 'add', symbol: 'AAPL', at: 1, attempts: 0 });
    await v1.messages.put({
      id: 1,
      sender: 'agent',
      body: 'hi',
      client_id: null,
      read_at: null,
      created_at: 5,
    });
    await v1.table('answers').bulkPut([
      { key: 'config:{}', name: 'config', data: [{ tag: 'languages', value: 'en' }], at: 10 },
      { key: 'userInfo:{}', name: 'userInfo', data: { money: '5.00' }, at: 11 },
      { key: 'gone:{}', name: 'someRetiredCall', data: 1, at: 12 },
    ]);
    v1.close();

    const db = new DeviceDb(name);
    await db.open();
    expect(db.verno).toBe(CURRENT_VERSION);
    expect(await db.quotes.get('AAPL')).toEqual({ symbol: 'AAPL', price: 190.5, asOf: 1000 });
    expect(await db.favouriteOps.count()).toBe(1);
    expect((await db.favourites.get('AAPL'))?.pending).toBe(1);
    expect(await db.messages.count()).toBe(1);
    const answers = await db.answers.toArray();
    expect(answers.map((a) => [a.key, a.owner])).toEqual([['config:{}', 0]]);
    expect(await db.answers.where('owner').equals(0).count()).toBe(1);
    await db.candles.put({
      key: 'AAPL:1d',
      symbol: 'AAPL',
      period: '1d',
      t: new Float64Array([1, 2]),
      o: new Float64Array([1, 2]),
      h: new Float64Array([1, 2]),
      l: new Float64Array([1, 2]),
      c: new Float64Array([1, 2]),
      v: new Float64Array([1, 2]),
      name: 'Apple',
      decimals: 2,
      asOf: 2,
    });
    const chunk = await db.candles.get('AAPL:1d');
    expect(chunk?.c).toBeInstanceOf(Float64Array);
    expect([...chunk!.c]).toEqual([1, 2]);
    db.close();
  });

  it('an app older than the database (an old tab after an update) still uses it and keeps newer tables', async () => {
    const name = freshName();
    const newer = new Dexie(name);
    newer.version(CURRENT_VERSION + 5).stores({ quotes: 'symbol', somethingNew: 'id' });
    await newer.open();
    await newer.table('somethingNew').put({ id: 1 });
    newer.close();

    const errors: unknown[] = [];
    const device = createDevice(name, (e) => errors.push(e));
    await device.write(device.epoch(), (db) => db.quotes.put({ symbol: 'X', price: 1, asOf: 1 }));
    expect(await device.read((db) => db.quotes.count(), -1)).toBe(1);
    expect(errors).toEqual([]);
    (await device.db()).close();

    const again = new Dexie(name);
    await again.open();
    expect(await again.table('somethingNew').count()).toBe(1);
    again.close();
  });

  it('reads answer their fallback and writes are dropped when the store cannot open', async () => {
    const errors: unknown[] = [];
    const device = createDevice(freshName(), (e) => errors.push(e));
    (await device.db()).close();
    (await device.db()).on('ready', () => {
      throw new Error('broken store');
    });
    expect(await device.read((db) => db.quotes.count(), -1)).toBe(-1);
    await device.write(device.epoch(), (db) => db.quotes.put({ symbol: 'X', price: 1, asOf: 1 }));
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });

  it('a live query of the store sees the writes after it, its code having arrived late', async () => {
    // As workers/api/favourites.ts starts one: once the store is open, its reads then run in the
    // query's own zone (Dexie learns from them which tables to watch).
    const device = createDevice(freshName());
    await device.db();
    const seen: number[] = [];
    const sub = liveQuery(() => device.read((db) => db.quotes.count(), -1)).subscribe((n) => seen.push(n));
    await vi.waitFor(() => expect(seen).toEqual([0]));
    await device.write(device.epoch(), (db) => db.quotes.put({ symbol: 'X', price: 1, asOf: 1 }));
    await vi.waitFor(() => expect(seen).toEqual([0, 1]));
    sub.unsubscribe();
  });

  it('wipe empties every table, and a write begun before it cannot bring old data back', async () => {
    const device = createDevice(freshName());
    const before = device.epoch();
    await device.write(before, async (db) => {
      await db.quotes.put({ symbol: 'AAPL', price: 1, asOf: 1 });
      await db.answers.put({ key: 'userInfo:{}', name: 'userInfo', data: {}, at: 1, owner: 7 });
      await db.favouriteOps.add({ op: 'add', symbol: 'AAPL', at: 1, attempts: 0 });
      await db.pendingMessages.put({ clientId: 'c1', body: 'x', at: 1, attempts: 0 });
    });
    await device.wipe();
    await device.write(before, (db) =>
      db.answers.put({ key: 'userInfo:{}', name: 'userInfo', data: {}, at: 2, owner: 7 }),
    );
    const counts = await device.read((db) => Promise.all(db.tables.map((t) => t.count())), [-1]);
    expect(counts.every((n) => n === 0)).toBe(true);
    await device.write(device.epoch(), (db) => db.quotes.put({ symbol: 'B', price: 1, asOf: 1 }));
    expect(await device.read((db) => db.quotes.count(), -1)).toBe(1);
  });
});
