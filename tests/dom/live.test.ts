import { describe, expect, it, vi } from 'vitest';
import type { CallResult } from '#shared/contract/define';
import type { CandleRow, Period, QuoteAnswer } from '#shared/contract/market';
import { ANSWER_WRITE_EVERY_MS, createAnswerCache, MAX_ANSWERS_PER_ENDPOINT } from '../../workers/answers';
import { type ChartUpdate, createCharts } from '../../workers/charts';
import type { Device } from '../../workers/device';
import { createQuoteHub, extractQuotes, type QuoteDelta } from '../../workers/quotes';
import { freshDevice } from '../support/device';

const fresh = () => freshDevice('live');
const tick = () => new Promise((r) => setTimeout(r, 0));

function hubOn(device: Device, persistDelayMs = 0) {
  return createQuoteHub({
    load: (symbols) => device.read((db) => db.quotes.bulkGet(symbols), []).then((r) => r.filter((q) => !!q)),
    save: (records) => device.write(device.epoch(), (db) => db.quotes.bulkPut(records)),
    persistDelayMs,
  });
}

describe('live prices', () => {
  it('reads prices from every kind of answer that carries them', () => {
    const at = 5000;
    expect(
      extractQuotes(
        'stockList',
        {
          rows: [
            {
              stock: 'TCS.NS',
              name: 'TCS',
              prasent: 3500.5,
              change: -2,
              percent_change: -0.1,
              decimals: 2,
              market: 'IN',
            },
          ],
        },
        at,
      ),
    ).toEqual([
      {
        symbol: 'TCS.NS',
        price: 3500.5,
        change: -2,
        percent: -0.1,
        name: 'TCS',
        market: 'IN',
        decimals: 2,
        asOf: at,
      },
    ]);
    expect(
      extractQuotes(
        'favouriteList',
        {
          list: [
            {
              stock_code: 'AAPL',
              stock_name: 'Apple',
              stock_detail: { prasent: 190, change: 1, percent_change: 0.5, as_of: 42 },
            },
          ],
          total: 1,
        },
        at,
      ),
    ).toEqual([{ symbol: 'AAPL', price: 190, change: 1, percent: 0.5, name: 'Apple', asOf: 42 }]);
    expect(
      extractQuotes(
        'yahoo',
        { symbol: 'AAPL', price: 191, change: 2, changePercent: 1.1, as_of: 43, rows: [] },
        at,
      ),
    ).toEqual([{ symbol: 'AAPL', price: 191, change: 2, percent: 1.1, asOf: 43 }]);
    expect(
      extractQuotes('indexList', { rows: [{ symbol: 'NIFTY50', prasent: 22000, as_of: 7 }] }, at),
    ).toEqual([{ symbol: 'NIFTY50', price: 22000, asOf: 7 }]);
    expect(extractQuotes('holdings', { rows: [{ stock: 'X', prasent: 'bad' }] }, at)).toEqual([]);
    expect(extractQuotes('userInfo', { money: '1.00' }, at)).toEqual([]);
  });

  it('pushes only what changed, ignores answers older than the known price, and persists in batches', async () => {
    const device = fresh();
    const hub = hubOn(device);
    const pushed: QuoteDelta[][] = [];
    hub.subscribe((d) => pushed.push(d));
    hub.ingest([
      { symbol: 'A', price: 10, change: 1, asOf: 100 },
      { symbol: 'B', price: 20, change: 0, asOf: 100 },
    ]);
    hub.ingest([
      { symbol: 'A', price: 10, change: 1, asOf: 101 },
      { symbol: 'B', price: 21, change: 1, asOf: 101 },
    ]);
    hub.ingest([{ symbol: 'B', price: 19, asOf: 50 }]);
    expect(pushed.map((batch) => batch.map((d) => `${d.symbol}=${d.price}`))).toEqual([
      ['A=10', 'B=20'],
      ['B=21'],
    ]);
    await tick();
    await tick();
    expect(await device.read((db) => db.quotes.toArray(), [])).toEqual([
      { symbol: 'A', price: 10, change: 1, asOf: 101 },
      { symbol: 'B', price: 21, change: 1, asOf: 101 },
    ]);

    // A new session starts from the device, marked as such, until the network prices it.
    const next = hubOn(device);
    expect(await next.get(['B', 'Z'])).toEqual([
      { symbol: 'B', price: 21, change: 1, asOf: 101, source: 'device' },
    ]);
    const again: QuoteDelta[][] = [];
    next.subscribe((d) => again.push(d));
    next.ingest([{ symbol: 'B', price: 21, change: 1, asOf: 102 }]);
    expect(again).toEqual([[{ symbol: 'B', price: 21, change: 1, asOf: 102, source: 'network' }]]);
  });
});

describe('offline answers', () => {
  it('serves a signed-in answer only to the user it belongs to', async () => {
    const device = fresh();
    let owner: number | null = 7;
    const cache = createAnswerCache(device, () => owner);
    await cache.write('userInfo', {}, { money: '5.00' }, 1000, device.epoch());
    await cache.write('config', {}, [{ tag: 'languages', value: 'en' }], 1000, device.epoch());
    expect((await cache.read('userInfo', {}))?.data).toEqual({ money: '5.00' });
    owner = 8;
    expect(await cache.read('userInfo', {})).toBeUndefined();
    owner = null;
    expect(await cache.read('userInfo', {})).toBeUndefined();
    expect((await cache.read('config', {}))?.at).toBe(1000);
  });

  it('keeps only calls meant for offline, writes a busy key at most every 10 s, and prunes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const device = fresh();
      const cache = createAnswerCache(device, () => 1);
      await cache.write('bankList', {}, [{ bank_card: '1234' }], 0, device.epoch());
      expect(await device.read((db) => db.answers.count(), -1)).toBe(0);
      await cache.write('userInfo', {}, { v: 1 }, 1_000, device.epoch());
      await cache.write('userInfo', {}, { v: 2 }, 1_000 + ANSWER_WRITE_EVERY_MS - 1, device.epoch());
      expect((await cache.read('userInfo', {}))?.data).toEqual({ v: 1 });
      await cache.write('userInfo', {}, { v: 3 }, 1_000 + ANSWER_WRITE_EVERY_MS, device.epoch());
      expect((await cache.read('userInfo', {}))?.data).toEqual({ v: 3 });

      for (let i = 0; i <= MAX_ANSWERS_PER_ENDPOINT + 5; i++)
        await cache.write('stockList', { page: i }, { rows: [] }, 100_000 + i * 61_000, device.epoch());
      const kept = await device.read((db) => db.answers.where('name').equals('stockList').count(), -1);
      expect(kept).toBeLessThanOrEqual(MAX_ANSWERS_PER_ENDPOINT);
      expect(await cache.read('stockList', { page: MAX_ANSWERS_PER_ENDPOINT + 5 })).toBeDefined();
      expect(await cache.read('stockList', { page: 0 })).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a busy key's newest answer reaches the device when its turn comes, or at once when the app is hidden", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const device = fresh();
      const cache = createAnswerCache(device, () => 1);
      await cache.write('userInfo', {}, { money: '0.00' }, 1_000, device.epoch());
      // A recharge settles between two writes: what the screen shows is not lost to the throttle.
      await cache.write('userInfo', {}, { money: '6000.00' }, 4_000, device.epoch());
      await cache.write('userInfo', {}, { money: '6000.00' }, 7_000, device.epoch());
      expect((await cache.read('userInfo', {}))?.data).toEqual({ money: '0.00' });
      await vi.advanceTimersByTimeAsync(ANSWER_WRITE_EVERY_MS);
      await cache.flush();
      expect(await cache.read('userInfo', {})).toMatchObject({ data: { money: '6000.00' }, at: 7_000 });

      await cache.write('userInfo', {}, { money: '5000.00' }, 12_000, device.epoch());
      await cache.flush();
      expect(await cache.read('userInfo', {})).toMatchObject({ data: { money: '5000.00' }, at: 12_000 });
      // A wipe (logout) drops what waits: nothing of the old session is written after it.
      await cache.write('userInfo', {}, { money: '1.00' }, 13_000, device.epoch());
      cache.forget();
      await vi.advanceTimersByTimeAsync(ANSWER_WRITE_EVERY_MS);
      expect((await cache.read('userInfo', {}))?.data).toEqual({ money: '5000.00' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers from a kept answer of the same call that holds the one asked for', async () => {
    const device = fresh();
    let owner: number | null = 1;
    const cache = createAnswerCache(device, () => owner);
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: i + 1 }));
    await cache.write(
      'stockList',
      { category: 'NSE', page: 1, limit: 20 },
      { rows, count: 45 },
      500,
      device.epoch(),
    );
    await cache.write(
      'indexList',
      {},
      {
        rows: [
          { symbol: 'A', category_code: 'NSE' },
          { symbol: 'B', category_code: 'US' },
        ],
      },
      600,
      device.epoch(),
    );
    await cache.write(
      'holdings',
      { type: 'stock', page: 1, limit: 10 },
      { rows: [{ id: 1 }], count: 1 },
      700,
      device.epoch(),
    );
    const read = async (name: string, input: unknown) => (await cache.read(name, input))?.data;
    expect(await cache.read('stockList', { category: 'NSE', page: 2, limit: 5 })).toMatchObject({
      data: { rows: rows.slice(5, 10), count: 45 },
      at: 500,
      key: 'stockList:{"category":"NSE","limit":5,"page":2}',
    });
    expect(await read('stockList', { category: 'NSE', limit: 3 })).toEqual({
      rows: rows.slice(0, 3),
      count: 45,
    });
    // Rows the kept page does not hold, or another filter: not derived.
    expect(await read('stockList', { category: 'NSE', page: 3, limit: 10 })).toBeUndefined();
    expect(await read('stockList', { category: 'US', page: 1, limit: 3 })).toBeUndefined();
    expect(await read('stockList', { page: 1, limit: 3 })).toBeUndefined();
    expect(await read('indexList', { category: 'us' })).toEqual({
      rows: [{ symbol: 'B', category_code: 'US' }],
    });
    // A page past the end of a list the kept page holds entirely is empty.
    expect(await read('holdings', { type: 'stock', page: 2, limit: 10 })).toEqual({ rows: [], count: 1 });
    // Another user's answer derives nothing.
    owner = 2;
    expect(await read('holdings', { type: 'stock', page: 1, limit: 5 })).toBeUndefined();
  });
});

/** A poller stand-in: the test delivers answers by hand. */
function manualPoller() {
  const subs = new Map<number, { key: string; onUpdate: (r: CallResult<unknown>, at: number) => void }>();
  let id = 0;
  return {
    subscribe(key: string, _run: unknown, sub: { onUpdate: (r: CallResult<never>, at: number) => void }) {
      subs.set(++id, { key, onUpdate: sub.onUpdate as never });
      return id;
    },
    unsubscribe(i: number) {
      const s = subs.get(i);
      subs.delete(i);
      return s as never;
    },
    deliver(key: string, result: CallResult<unknown>, at = 1) {
      for (const s of subs.values()) if (s.key === key) s.onUpdate(result, at);
    },
    keys: () => [...subs.values()].map((s) => s.key),
  };
}

const DAY = 86_400_000;
function answer(symbol: string, rows: CandleRow[], price: number): QuoteAnswer {
  return {
    symbol,
    name: `${symbol} Inc`,
    market: 'US',
    exchange_name: 'NASDAQ',
    region: 'US',
    decimals: 2,
    price,
    change: 1,
    changePercent: 0.5,
    percent_change: 0.5,
    open: 1,
    high: 1,
    low: 1,
    prev_close: 1,
    volume: 1,
    as_of: rows.length ? rows[rows.length - 1]!.timestamp : 0,
    rows,
  };
}
const days = (n: number, start = Date.UTC(2025, 0, 6)) =>
  Array.from({ length: n }, (_, i) => ({
    timestamp: start + i * DAY,
    open: 100 + i,
    high: 102 + i,
    low: 99 + i,
    close: 101 + i,
    volume: 1000,
    change: 1,
  }));

describe('live charts', () => {
  function setup(device = fresh()) {
    const poller = manualPoller();
    const hub = hubOn(device);
    const charts = createCharts({
      poller: poller as never,
      fetch: async () => ({ ok: false, error: 'unused', status: 0 }),
      device,
      hub,
      now: () => Date.now(),
    });
    return { poller, hub, charts, device };
  }
  const watch = (charts: ReturnType<typeof createCharts>, symbol: string, period: Period) => {
    const updates: ChartUpdate[] = [];
    const id = charts.watch(symbol, period, undefined, (u) => updates.push(u));
    return { updates, id };
  };

  it('shares one poll per symbol and period, moves the last bar with live prices, stops when unwatched', async () => {
    const { poller, hub, charts } = setup();
    const a = watch(charts, 'AAPL', '1d');
    const b = watch(charts, 'AAPL', '1d');
    expect(poller.keys()).toEqual(['chart:AAPL:1d']);
    const rows = days(30);
    poller.deliver('chart:AAPL:1d', { ok: true, data: answer('AAPL', rows, 130) });
    const frame = a.updates.at(-1)!.frame!;
    expect(frame.n).toBe(30);
    expect(frame.source).toBe('network');
    expect(frame.name).toBe('AAPL Inc');
    expect(frame.ma20[19]).toBeCloseTo(rows.slice(0, 20).reduce((s, r) => s + r.close, 0) / 20);
    expect(frame.buffer.byteLength).toBe(30 * 8 * 10 + 30);
    expect(b.updates).toHaveLength(1);

    hub.ingest([{ symbol: 'AAPL', price: 200, asOf: rows[29]!.timestamp + 3600_000 }]);
    const moved = a.updates.at(-1)!.frame!;
    expect(moved.n).toBe(30);
    expect(moved.c[29]).toBe(200);
    expect(moved.h[29]).toBe(200);
    hub.ingest([{ symbol: 'AAPL', price: 201, asOf: rows[29]!.timestamp + DAY }]);
    expect(a.updates.at(-1)!.frame!.n).toBe(31);

    poller.deliver('chart:AAPL:1d', { ok: false, error: 'errors.network', status: 0 });
    expect(a.updates.at(-1)).toEqual({ error: 'errors.network' });

    charts.unwatch(a.id);
    expect(poller.keys()).toEqual(['chart:AAPL:1d']);
    charts.unwatch(b.id);
    expect(poller.keys()).toEqual([]);
  });

  it('after a visit, the next one (offline) starts from the stored chunk; weeks roll up from stored days', async () => {
    const device = fresh();
    const first = setup(device);
    const { id } = watch(first.charts, 'TCS.NS', '1d');
    first.poller.deliver('chart:TCS.NS:1d', { ok: true, data: answer('TCS.NS', days(21), 120) });
    first.charts.unwatch(id);
    await tick();
    await tick();

    const second = setup(device);
    const daily = watch(second.charts, 'TCS.NS', '1d');
    const weekly = watch(second.charts, 'TCS.NS', '1wk');
    for (let i = 0; i < 10 && (!daily.updates.length || !weekly.updates.length); i++) await tick();
    const d = daily.updates.at(-1)!.frame!;
    expect(d.source).toBe('device');
    expect(d.n).toBe(21);
    expect(d.name).toBe('TCS.NS Inc');
    const w = weekly.updates.at(-1)!.frame!;
    expect(w.derived).toBe(true);
    expect(w.n).toBe(3); // 21 days from a Monday: three weeks
    expect(w.o[0]).toBe(100);
    expect(w.c[0]).toBe(107);
    expect(w.v[0]).toBe(7000);

    second.poller.deliver('chart:TCS.NS:1d', { ok: true, data: answer('TCS.NS', days(22), 121) });
    expect(daily.updates.at(-1)!.frame!.source).toBe('network');
    expect(daily.updates.at(-1)!.frame!.n).toBe(22);
  });
});
