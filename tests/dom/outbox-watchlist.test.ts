import { describe, expect, it } from 'vitest';
import { stableJson } from '#shared/call';
import { type CallResult, ERR } from '#shared/contract/define';
import type { WatchlistItem } from '#shared/contract/trading';
import type { Device } from '../../workers/device';
import { createFavourites, FAVOURITE_FAILED } from '../../workers/favourites';
import { LIST_REFUSED } from '../../workers/lists-outbox';
import { down, freshDevice, ok } from '../support/device';

/*
 * The favourites and named-watchlist outbox against an in-memory stand-in of the server's
 * favourites and watchlist endpoints (their contract: add/remove set a state; a list's checks and
 * errors as server/watchlists/lists.ts makes them).
 */
const fresh = () => freshDevice('outbox');

/** What screens read of the device store (src/device/LiveQueries.tsx): each favourite and its mark. */
async function favouritesOf(device: Device) {
  const rows = await device.read((db) => db.favourites.toArray(), []);
  return Object.fromEntries(
    rows.map((r) => [r.symbol, { on: r.on, pending: r.pending, name: r.name, market: r.market }]),
  );
}

function favouriteServer() {
  const set = new Set<string>();
  const log: string[] = [];
  let failAfter = Number.POSITIVE_INFINITY;
  let reject: string | null = null;
  return {
    set,
    log,
    failAfter(n: number) {
      failAfter = n;
    },
    rejectSymbol(symbol: string | null) {
      reject = symbol;
    },
    async send(name: string, input: { symbol?: string }): Promise<CallResult<unknown>> {
      const symbol = input.symbol ?? '';
      if (name === 'favouriteCheck') return ok({ collected: set.has(symbol) });
      if (failAfter-- <= 0) return down;
      if (symbol === reject) return { ok: false, error: 'errors.unknownSymbol', status: 400 };
      log.push(`${name}:${symbol}`);
      if (name === 'favouriteAdd') set.add(symbol);
      else set.delete(symbol);
      return ok(null);
    },
  };
}

describe('favourites outbox', () => {
  it('queues named watchlist changes in the same outbox: pending, replayed in order, favourites untouched', async () => {
    const device = fresh();
    const sent: string[] = [];
    let online = false;
    const fav = createFavourites({
      device,
      send: async (name, input) => {
        sent.push(`${name}:${input.id ?? '-'}:${input.symbol}`);
        return ok(null);
      },
      online: () => online,
    });
    await fav.toggle('AAPL', true);
    expect(await fav.listToggle(7, 'TCS.NS', true, { name: 'TCS', market: 'IN' })).toBe('offline');
    await fav.listToggle(7, 'AAPL', false);
    expect(await fav.listPending()).toEqual([
      { list: 7, symbol: 'TCS.NS', op: 'add', name: 'TCS', market: 'IN' },
      { list: 7, symbol: 'AAPL', op: 'remove', name: undefined, market: undefined },
    ]);
    // A named list's change of a symbol does not make its favourite pending or not.
    expect((await favouritesOf(device)).AAPL).toMatchObject({ on: true, pending: 1 });
    expect(sent).toEqual([]);

    online = true;
    expect(await fav.flush()).toBe('done');
    expect(sent).toEqual(['favouriteAdd:-:AAPL', 'watchlistAdd:7:TCS.NS', 'watchlistRemove:7:AAPL']);
    expect(await fav.listPending()).toEqual([]);
    expect((await favouritesOf(device)).AAPL).toMatchObject({ on: true, pending: 0 });
  });

  it('applies toggles offline at once as pending, then replays them in order when online', async () => {
    const device = fresh();
    const server = favouriteServer();
    let online = false;
    const fav = createFavourites({ device, send: (n, i) => server.send(n, i), online: () => online });

    expect(await fav.toggle('AAPL', true, { name: 'Apple' })).toBe('offline');
    await fav.toggle('TCS.NS', true);
    await fav.toggle('AAPL', false);
    await fav.toggle('INFY.NS', true);
    expect(await favouritesOf(device)).toEqual({
      AAPL: { on: false, pending: 1, name: 'Apple', market: undefined },
      'TCS.NS': { on: true, pending: 1, name: undefined, market: undefined },
      'INFY.NS': { on: true, pending: 1, name: undefined, market: undefined },
    });
    expect(server.log).toEqual([]);

    online = true;
    expect(await fav.flush()).toBe('done');
    expect(server.log).toEqual([
      'favouriteAdd:AAPL',
      'favouriteAdd:TCS.NS',
      'favouriteRemove:AAPL',
      'favouriteAdd:INFY.NS',
    ]);
    expect([...server.set].sort()).toEqual(['INFY.NS', 'TCS.NS']);
    const snap = await favouritesOf(device);
    expect(Object.values(snap).every((s) => s.pending === 0)).toBe(true);
    expect(snap.AAPL?.on).toBe(false);
    expect(await fav.pendingCount()).toBe(0);
  });

  it('stops at a network failure, keeps the rest, and a later replay converges (idempotent)', async () => {
    const device = fresh();
    const server = favouriteServer();
    let online = false;
    const fav = createFavourites({ device, send: (n, i) => server.send(n, i), online: () => online });
    for (const s of ['A', 'B', 'C']) await fav.toggle(s, true);
    online = true;
    server.failAfter(1);
    expect(await fav.flush()).toBe('retry');
    expect(server.log).toEqual(['favouriteAdd:A']);
    expect(await fav.pendingCount()).toBe(2);
    expect((await favouritesOf(device)).A?.pending).toBe(0);
    expect((await favouritesOf(device)).B?.pending).toBe(1);

    // A replay that re-sends an operation the server already applied changes nothing.
    await device.write(device.epoch(), (db) =>
      db.favouriteOps.add({ op: 'add', symbol: 'A', at: 0, attempts: 0 }),
    );
    server.failAfter(Number.POSITIVE_INFINITY);
    expect(await fav.flush()).toBe('done');
    expect([...server.set].sort()).toEqual(['A', 'B', 'C']);
    expect(await fav.pendingCount()).toBe(0);
  });

  it('a change the server refuses is dropped, the server truth is restored and the user told', async () => {
    const device = fresh();
    const server = favouriteServer();
    const notices: string[] = [];
    const fav = createFavourites({
      device,
      send: (n, i) => server.send(n, i),
      online: () => true,
      notify: (key, symbol) => notices.push(`${key}:${symbol}`),
    });
    server.rejectSymbol('BAD');
    await fav.toggle('BAD', true);
    await fav.toggle('GOOD', true);
    expect(notices).toEqual([`${FAVOURITE_FAILED}:BAD`]);
    expect(await favouritesOf(device)).toMatchObject({
      BAD: { on: false, pending: 0 },
      GOOD: { on: true, pending: 0 },
    });
    expect(await fav.pendingCount()).toBe(0);
  });

  it('a session the server ended stops the replay without losing the outbox', async () => {
    const device = fresh();
    const fav = createFavourites({
      device,
      send: async () => ({ ok: false, error: ERR.sessionExpired, status: 401 }),
      online: () => true,
    });
    expect(await fav.toggle('A', true)).toBe('ended');
    expect(await fav.pendingCount()).toBe(1);
  });

  it('a pending change wins over the server in a check; a confirmed one follows the server', async () => {
    const device = fresh();
    const server = favouriteServer();
    let online = false;
    const fav = createFavourites({ device, send: (n, i) => server.send(n, i), online: () => online });
    server.set.add('A');
    await fav.toggle('A', false);
    online = true;
    expect(await fav.check('A')).toMatchObject({ on: false, pending: 1 });
    await fav.flush();
    server.set.add('A'); // changed elsewhere (another device)
    expect(await fav.check('A')).toMatchObject({ on: true, pending: 0 });
  });

  it('learns from the watchlist: listed means on, missing from a complete list means off', async () => {
    const device = fresh();
    const fav = createFavourites({ device, send: async () => down, online: () => false });
    const item = (code: string): WatchlistItem =>
      ({ stock_code: code, stock_name: code.toLowerCase(), stock_detail: { market: 'US' } }) as WatchlistItem;
    await fav.learn([item('A'), item('B')], 2);
    await fav.toggle('C', true); // pending: the server does not know it yet
    await fav.learn([item('A')], 1);
    expect(await favouritesOf(device)).toMatchObject({
      A: { on: true, pending: 0, name: 'a' },
      B: { on: false, pending: 0 },
      C: { on: true, pending: 1 },
    });
    await fav.learn([item('Z')], 25); // one page of many: nothing is inferred about the others
    expect((await favouritesOf(device)).A?.on).toBe(true);
  });

  it('without a device store a toggle goes straight to the server, or is reported as not done', async () => {
    const device = fresh();
    (await device.db()).close(); // as in a browser that refuses IndexedDB
    const server = favouriteServer();
    let online = true;
    const notices: string[] = [];
    const fav = createFavourites({
      device,
      send: (n, i) => server.send(n, i),
      online: () => online,
      notify: (key, symbol) => notices.push(`${key}:${symbol}`),
    });
    expect(await fav.toggle('A', true)).toBe('done');
    expect([...server.set]).toEqual(['A']);
    online = false;
    expect(await fav.toggle('B', true)).toBe('offline');
    expect(notices).toEqual([`${FAVOURITE_FAILED}:B`]);
  });

  it('a wipe (logout) empties the outbox, even offline', async () => {
    const device = fresh();
    const fav = createFavourites({ device, send: async () => down, online: () => false });
    await fav.toggle('A', true);
    await device.wipe();
    expect(await fav.pendingCount()).toBe(0);
    expect(await favouritesOf(device)).toEqual({});
  });
});

/** A stand-in of the server's named watchlists (server/watchlists/lists.ts): its checks and errors. */
function listServer() {
  let nextId = 100;
  const lists: Array<{ id: number; name: string | null; items: Set<string> }> = [
    { id: 1, name: null, items: new Set() },
    { id: 2, name: 'Tech', items: new Set(['AAPL']) },
    { id: 3, name: 'Banks', items: new Set() },
  ];
  const log: string[] = [];
  let fail = 0;
  /** The next answer is lost after the server acted on it (a timeout on the way back). */
  let loseAnswer = false;
  const refuse = (error: string, status = 400): CallResult<never> => ({ ok: false, error, status });
  const view = () => ({
    rows: lists.map((l, position) => ({
      id: l.id,
      name: l.name,
      is_default: l.name === null,
      count: l.items.size,
      position,
    })),
  });
  const taken = (name: string, except?: number) =>
    lists.some((l) => l.id !== except && l.name?.toLowerCase() === name.toLowerCase());
  function act(name: string, input: { symbol?: string; id?: number; name?: string; ids?: number[] }) {
    const list = lists.find((l) => l.id === input.id);
    switch (name) {
      case 'watchlistLists':
        return ok(view());
      case 'watchlistCreate': {
        if (lists.length >= 10) return refuse('errors.watchlistLimit', 409);
        if (taken(input.name!)) return refuse('errors.watchlistNameTaken', 409);
        const made = { id: nextId++, name: input.name!, items: new Set<string>() };
        lists.push(made);
        return ok(view().rows.find((r) => r.id === made.id));
      }
      case 'watchlistRename':
        if (!list) return refuse(ERR.notFound, 404);
        if (taken(input.name!, list.id)) return refuse('errors.watchlistNameTaken', 409);
        list.name = input.name!;
        return ok(null);
      case 'watchlistReorder': {
        const ids = input.ids!;
        if (ids.some((id) => !lists.some((l) => l.id === id))) return refuse(ERR.notFound, 404);
        if (ids.length !== lists.length) return refuse('errors.watchlistOrder');
        lists.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
        return ok(view());
      }
      case 'watchlistDelete':
        if (!list) return refuse(ERR.notFound, 404);
        lists.splice(lists.indexOf(list), 1);
        return ok(null);
      case 'watchlistAdd':
        if (!list) return refuse(ERR.notFound, 404);
        list.items.add(input.symbol!);
        return ok(null);
      case 'watchlistRemove':
        if (!list) return refuse(ERR.notFound, 404);
        list.items.delete(input.symbol!);
        return ok(null);
    }
    throw new Error(`unexpected ${name}`);
  }
  return {
    lists,
    log,
    failNext(n: number) {
      fail = n;
    },
    loseNextAnswer() {
      loseAnswer = true;
    },
    names: () => lists.map((l) => l.name ?? '(default)'),
    async send(name: string, input: { symbol?: string; id?: number; name?: string; ids?: number[] }) {
      if (fail > 0) {
        fail -= 1;
        return down;
      }
      if (name !== 'watchlistLists') log.push(`${name}:${stableJson(input)}`);
      const answer = act(name, input);
      if (loseAnswer) {
        loseAnswer = false;
        return down;
      }
      return answer as CallResult<unknown>;
    },
  };
}

describe('watchlists in the outbox', () => {
  it('rename, reorder and delete made offline wait as pending, then are sent once, in order', async () => {
    const device = fresh();
    const server = listServer();
    let online = false;
    const fav = createFavourites({ device, send: (n, i) => server.send(n, i), online: () => online });

    expect((await fav.listRename(2, 'Chips', 'Tech')).outcome).toBe('offline');
    expect((await fav.listReorder([3, 1, 2])).outcome).toBe('offline');
    expect((await fav.listDelete(3, 'Banks')).outcome).toBe('offline');
    // Pending at once (the screens overlay these on the server's lists), nothing sent.
    expect((await fav.listOutbox()).lists).toEqual([
      { op: 'rename', list: 2, name: 'Chips', was: 'Tech' },
      { op: 'reorder', ids: [3, 1, 2] },
      { op: 'delete', list: 3, was: 'Banks' },
    ]);
    expect(await fav.pendingCount()).toBe(3);
    expect(server.log).toEqual([]);

    online = true;
    expect(await fav.flush()).toBe('done');
    expect(server.log).toEqual([
      'watchlistRename:{"id":2,"name":"Chips"}',
      'watchlistReorder:{"ids":[3,1,2]}',
      'watchlistDelete:{"id":3}',
    ]);
    expect(server.names()).toEqual(['(default)', 'Chips']);
    expect(await fav.listOutbox()).toEqual({ items: [], lists: [], made: {} });
    // A second replay sends nothing again.
    expect(await fav.flush()).toBe('done');
    expect(server.log).toHaveLength(3);
  });

  it('a list made offline has a temporary id; its adds, rename and place follow the server id', async () => {
    const device = fresh();
    const server = listServer();
    let online = false;
    const fav = createFavourites({ device, send: (n, i) => server.send(n, i), online: () => online });

    const made = await fav.listCreate('Pharma');
    expect(made.outcome).toBe('offline');
    const temp = made.id!;
    expect(temp).toBeLessThan(0);
    await fav.listToggle(temp, 'SUNPHARMA.NS', true, { name: 'Sun Pharma', market: 'IN' });
    await fav.listRename(temp, 'Health', 'Pharma');
    await fav.listReorder([temp, 1, 2, 3]);
    expect((await fav.listOutbox()).lists).toEqual([
      { op: 'create', list: temp, name: 'Pharma' },
      { op: 'rename', list: temp, name: 'Health', was: 'Pharma' },
      { op: 'reorder', ids: [temp, 1, 2, 3] },
    ]);
    expect((await fav.listPending())[0]).toMatchObject({ list: temp, symbol: 'SUNPHARMA.NS', op: 'add' });

    online = true;
    // The create's answer is lost once: sent again, the server already has it (no second list).
    server.loseNextAnswer();
    expect(await fav.flush()).toBe('retry');
    expect(await fav.flush()).toBe('done');
    const real = server.lists.find((l) => l.name === 'Health')!.id;
    expect(server.log).toEqual([
      'watchlistCreate:{"name":"Pharma"}',
      'watchlistCreate:{"name":"Pharma"}',
      `watchlistAdd:{"id":${real},"symbol":"SUNPHARMA.NS"}`,
      `watchlistRename:{"id":${real},"name":"Health"}`,
      `watchlistReorder:{"ids":[${real},1,2,3]}`,
    ]);
    expect(server.names()).toEqual(['Health', '(default)', 'Tech', 'Banks']);
    expect([...server.lists[0]!.items]).toEqual(['SUNPHARMA.NS']);
    expect(await fav.listOutbox()).toEqual({ items: [], lists: [], made: { [temp]: real } });
  });

  it('a refused change is dropped and the user told why; a refused create takes its changes with it', async () => {
    const device = fresh();
    const server = listServer();
    let online = false;
    const notices: string[] = [];
    const fav = createFavourites({
      device,
      send: (n, i) => server.send(n, i),
      online: () => online,
      notifyList: (key, params, reason) => notices.push(`${key}:${stableJson(params)}:${reason}`),
    });
    await fav.listRename(3, 'tech', 'Banks');
    const made = await fav.listCreate('Banks');
    await fav.listToggle(made.id!, 'HDFCBANK.NS', true);
    await fav.listReorder([made.id!, 1, 2, 3]);
    await fav.listRename(2, 'Chips', 'Tech');

    online = true;
    expect(await fav.flush()).toBe('done');
    // The taken name is refused, the create too; the list's add is never sent, the order loses it.
    expect(server.log).toEqual([
      'watchlistRename:{"id":3,"name":"tech"}',
      'watchlistCreate:{"name":"Banks"}',
      'watchlistReorder:{"ids":[1,2,3]}',
      'watchlistRename:{"id":2,"name":"Chips"}',
    ]);
    expect(notices).toEqual([
      `${LIST_REFUSED.rename}:{"name":"Banks","to":"tech"}:errors.watchlistNameTaken`,
      `${LIST_REFUSED.create}:{"name":"Banks"}:errors.watchlistNameTaken`,
    ]);
    expect(server.names()).toEqual(['(default)', 'Chips', 'Banks']);
    expect(await fav.listOutbox()).toEqual({ items: [], lists: [], made: {} });
  });

  it('deleting a list drops its waiting changes; one made offline is forgotten without a call', async () => {
    const device = fresh();
    const server = listServer();
    let online = false;
    const fav = createFavourites({ device, send: (n, i) => server.send(n, i), online: () => online });
    await fav.listToggle(2, 'MSFT', true);
    await fav.listRename(2, 'Chips', 'Tech');
    const made = await fav.listCreate('Later');
    await fav.listToggle(made.id!, 'TCS.NS', true);
    await fav.listDelete(made.id!, 'Later');
    await fav.listDelete(2, 'Chips');
    expect((await fav.listOutbox()).lists).toEqual([{ op: 'delete', list: 2, was: 'Chips' }]);
    expect(await fav.listPending()).toEqual([]);

    online = true;
    // Sent, its answer lost, sent again: already gone is done, not a refusal.
    server.loseNextAnswer();
    expect(await fav.flush()).toBe('retry');
    expect(await fav.flush()).toBe('done');
    expect(server.log).toEqual(['watchlistDelete:{"id":2}', 'watchlistDelete:{"id":2}']);
    expect(server.names()).toEqual(['(default)', 'Banks']);
  });
});
