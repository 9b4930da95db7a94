import { expose, releaseProxy, transfer } from 'comlink';
import { liveQuery, type Subscription } from 'dexie';
import {
  type CallResult,
  type Contract,
  contract,
  type EndpointName,
  ERR,
  type ReqOf,
  type ResOf,
  stableJson,
} from '../src/shared/contract/index';
import type { Period } from '../src/shared/contract/market';
import type { WatchlistItem } from '../src/shared/contract/trading';
import { createAnswerCache } from './answers';
import { type SparkPaths, sparkPaths } from './chart';
import { type ChartUpdate, createCharts } from './charts';
import { createDevice } from './device';
import { createFavourites, type FavouriteState } from './favourites';
import { type CallOptions, createHttp } from './http';
import { type PreparedImage, prepareImage } from './images';
import { type ChatView, createMessages } from './messages';
import { createPoller } from './poller';
import { createQuoteHub, extractQuotes, type QuoteDelta } from './quotes';
import { createUploader, type Progress } from './upload';

/**
 * The sync worker: the only network client of the app (SPEC §7) and the only user of the device
 * store. The UI imports its type only (SyncApi) and talks to it through src/api/client.ts.
 * Everything it pushes to the UI goes through Comlink callbacks, released when unregistered.
 */
let baseURL = '/api';
let token: string | null = null;
let userId: number | null = null;
let visible = true;
/** The window's view of connectivity (it sees `offline` reliably); the worker's own as fallback. */
let reportedOnline: boolean | null = null;
let sessionEnded: ((reason: string) => void) | null = null;

const online = () => reportedOnline ?? (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

/** Serialises outbox replays across tabs (each tab has its own worker). */
function lock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  return locks ? (locks.request(name, fn) as Promise<T>) : fn();
}

const http = createHttp({
  get baseURL() {
    return baseURL;
  },
  getToken: () => token,
  onLogout: () => {
    if (!token) return;
    token = null;
    sessionEnded?.('expired');
  },
  isOnline: online,
});

const uploader = createUploader({
  get baseURL() {
    return baseURL;
  },
  getToken: () => token,
  onLogout: () => {
    if (!token) return;
    token = null;
    sessionEnded?.('expired');
  },
  isOnline: online,
});

const device = createDevice(undefined, (err) => console.warn('device store:', err));
const answers = createAnswerCache(device, () => userId);
const hub = createQuoteHub({
  load: (symbols) => device.read((db) => db.quotes.bulkGet(symbols), []).then((r) => r.filter((q) => !!q)),
  save: (records) => device.write(device.epoch(), (db) => db.quotes.bulkPut(records)),
});
const poller = createPoller();

type Update<T> = (result: CallResult<T>, at: number, source: 'network' | 'device') => void;
type Released = { [releaseProxy]?: () => void };
const release = (cb: unknown) => (cb as Released | undefined)?.[releaseProxy]?.call(cb);

let lastUnread = -1;
/** The server has replies the cached chat list may not: the next chat screen refetches. */
let chatDirty = false;

/** Every good answer teaches the device something: prices, favourites, the offline copy. */
function learn(name: EndpointName, input: unknown, data: unknown, at: number, epoch: number): void {
  const quotes = extractQuotes(name, data, at);
  if (quotes.length) hub.ingest(quotes);
  if (contract[name].method === 'GET' && answers.cacheable(name))
    void answers.write(name, `${name}:${stableJson(input)}`, data, at, epoch);
  if (name === 'favouriteList') {
    const d = data as { list: WatchlistItem[]; total: number };
    void favourites.learn(d.list, d.total, (input as { page?: number }).page ?? 1);
  }
  if (name === 'unreadCount') {
    const count = (data as { unread_count: number }).unread_count;
    // A new agent reply: refresh the chat for the screens that show it, or, when none does, at
    // the next one that opens (the 30-minute cache would otherwise hide the reply the badge counts).
    if (count > 0 && count > lastUnread) {
      if (chatWatchers.size) void messages.load(true);
      else chatDirty = true;
    }
    lastUnread = count;
  }
}

async function request<K extends EndpointName>(
  name: K,
  input: ReqOf<Contract[K]>,
  options: CallOptions = {},
): Promise<CallResult<ResOf<Contract[K]>>> {
  const epoch = device.epoch();
  const ep = contract[name];
  // Every money call carries a key; callers that may retry pass their own and reuse it.
  const opts =
    ep.money && !options.idempotencyKey ? { ...options, idempotencyKey: crypto.randomUUID() } : options;
  const result = await http<ResOf<Contract[K]>>(ep, input, opts);
  if (result.ok) learn(name, input, result.data, Date.now(), epoch);
  return result;
}

const favourites = createFavourites({
  device,
  send: (name, input) => request(name, input),
  online,
  notify: (key, symbol) => {
    for (const cb of noticeListeners.values()) cb(key, { symbol });
  },
  lock,
});

const chatWatchers = new Map<number, (view: ChatView) => void>();
const pushChat = async () => {
  if (!chatWatchers.size) return;
  const view = await messages.view();
  for (const cb of chatWatchers.values()) cb(view);
};
const messages = createMessages({
  device,
  send: (name, input) => request(name, input as never),
  online,
  lock,
  changed: () => void pushChat(),
});
let chatTtlTimer: ReturnType<typeof setInterval> | null = null;

const charts = createCharts({
  poller,
  fetch: (symbol, period, market) =>
    request('yahoo', { symbol, mold: period, ...(market ? { market } : {}) }),
  device,
  hub,
});

const noticeListeners = new Map<number, (key: string, params: Record<string, unknown>) => void>();
const quoteListeners = new Map<number, () => void>();
const favouriteListeners = new Map<number, (map: Record<string, FavouriteState>) => void>();
let favouriteSub: Subscription | null = null;
let nextListener = 1;

/** Outboxes are replayed when the app comes online, signs in, and on a timer while some wait. */
let outboxTimer: ReturnType<typeof setTimeout> | null = null;
let outboxDelay = 5_000;
async function flushOutboxes(): Promise<void> {
  if (!token || !online()) return;
  const [fav] = await Promise.all([favourites.flush(), messages.flush()]);
  const waiting = fav === 'retry' || (await favourites.pendingCount()) > 0;
  if (outboxTimer) clearTimeout(outboxTimer);
  outboxTimer = null;
  if (waiting && token) {
    outboxTimer = setTimeout(() => void flushOutboxes(), outboxDelay);
    outboxDelay = Math.min(outboxDelay * 2, 60_000);
  } else outboxDelay = 5_000;
}

function updateActivity(): void {
  poller.setActive(visible && online());
  if (online()) void flushOutboxes();
}
if (typeof self !== 'undefined' && 'addEventListener' in self) {
  self.addEventListener('online', updateActivity);
  self.addEventListener('offline', updateActivity);
}

const api = {
  configure(options: { baseURL: string }): void {
    baseURL = options.baseURL;
  },
  /** The session's token and user (answers of signed-in calls are kept per user). */
  setToken(next: string | null, user: number | null = null): void {
    const signedIn = next !== null && next !== token;
    token = next;
    userId = next === null ? null : user;
    if (signedIn) void flushOutboxes();
  },
  /** Called when the server ends the session (logout answer or 401). */
  onSessionEnded(callback: (reason: string) => void): void {
    sessionEnded = callback;
  },
  setVisible(next: boolean): void {
    visible = next;
    updateActivity();
  },
  /** The window's online/offline events (Chromium does not always deliver them to workers). */
  setOnline(next: boolean): void {
    reportedOnline = next;
    updateActivity();
  },
  call<K extends EndpointName>(
    name: K,
    input: ReqOf<Contract[K]>,
    options: CallOptions = {},
  ): Promise<CallResult<ResOf<Contract[K]>>> {
    return request(name, input, options);
  },
  /**
   * Subscribes to a shared poll; returns the id to pass to unwatch. Calls kept for offline answer
   * at once from the device (`source: 'device'`, with the time they were fetched) until the
   * network answers.
   */
  watch<K extends EndpointName>(
    name: K,
    input: ReqOf<Contract[K]>,
    intervalMs: number,
    onUpdate: Update<ResOf<Contract[K]>>,
  ): number {
    const key = `${name}:${stableJson(input)}`;
    let fresh = false;
    const id = poller.subscribe(key, () => request(name, input), {
      intervalMs,
      onUpdate: (result, at) => {
        if (result.ok) fresh = true;
        onUpdate(result, at, 'network');
      },
    });
    if (!fresh) {
      const kept = answers.cacheable(name) ? answers.read(name, key) : Promise.resolve(undefined);
      void kept.then((rec) => {
        if (fresh || !poller.has(id)) return;
        if (rec) onUpdate({ ok: true, data: rec.data as never }, rec.at, 'device');
        // Offline with nothing kept: say so now rather than leave the screen loading.
        else if (!online()) onUpdate({ ok: false, error: ERR.offline, status: 0 }, Date.now(), 'device');
      });
    }
    return id;
  },
  unwatch(id: number): void {
    release(poller.unsubscribe(id)?.onUpdate);
  },
  refresh<K extends EndpointName>(name: K, input: ReqOf<Contract[K]>): void {
    poller.refresh(`${name}:${stableJson(input)}`);
  },

  /**
   * An identity photo: decoded, shrunk and recompressed here (SPEC §5 image limits), then uploaded
   * with progress. Answers the upload's id and url plus the prepared image for the preview.
   */
  async uploadImage(
    file: Blob,
    onProgress?: Progress,
  ): Promise<CallResult<{ id: string; url: string; image: PreparedImage }>> {
    const prepared = await prepareImage(file);
    if (!prepared.ok) {
      release(onProgress);
      return prepared;
    }
    const result = await uploader<{ id: string; url: string }>(
      contract.upload,
      prepared.data.blob,
      'photo.jpg',
      onProgress ? (p) => onProgress(p) : undefined,
    );
    release(onProgress);
    return result.ok ? { ok: true, data: { ...result.data, image: prepared.data } } : result;
  },

  /** Live prices: every change the worker learns, as small batches. */
  onQuotes(cb: (deltas: QuoteDelta[]) => void): number {
    const id = nextListener++;
    const off = hub.subscribe(cb);
    quoteListeners.set(id, () => {
      off();
      release(cb);
    });
    return id;
  },
  offQuotes(id: number): void {
    quoteListeners.get(id)?.();
    quoteListeners.delete(id);
  },
  /** Last known prices (this session's, else the device's). */
  quotes(symbols: string[]): Promise<QuoteDelta[]> {
    return hub.get(symbols);
  },

  /** A live chart; frames arrive through `cb` with their arrays transferred. */
  watchChart(
    symbol: string,
    period: Period,
    market: string | undefined,
    cb: (u: ChartUpdate) => void,
  ): number {
    return charts.watch(symbol, period, market, (u) => (u.frame ? cb(transfer(u, [u.frame.buffer])) : cb(u)));
  },
  unwatchChart(id: number): void {
    release(charts.unwatch(id));
  },
  /** Sparkline paths (SPARK_VIEWBOX) for several series at once. */
  sparklines(series: number[][]): SparkPaths[] {
    return series.map((values) => sparkPaths(values));
  },

  /** The device's favourites with their pending marks, now and after every change (any tab). */
  onFavourites(cb: (map: Record<string, FavouriteState>) => void): number {
    const id = nextListener++;
    favouriteListeners.set(id, cb);
    favouriteSub ??= liveQuery(() => favourites.snapshot()).subscribe({
      next: (map) => {
        for (const l of favouriteListeners.values()) l(map);
      },
      error: (err) => console.warn('favourites:', err),
    });
    void favourites.snapshot().then((map) => cb(map));
    return id;
  },
  offFavourites(id: number): void {
    release(favouriteListeners.get(id));
    favouriteListeners.delete(id);
    if (!favouriteListeners.size) {
      favouriteSub?.unsubscribe();
      favouriteSub = null;
    }
  },
  toggleFavourite(symbol: string, on: boolean, meta: { name?: string; market?: string } = {}): Promise<void> {
    return favourites.toggle(symbol, on, meta).then(() => void flushOutboxes());
  },
  checkFavourite(symbol: string): Promise<FavouriteState | undefined> {
    return favourites.check(symbol);
  },

  /** Customer-service messages: the cached list (refetched after 30 minutes) and the outbox. */
  watchMessages(cb: (view: ChatView) => void): number {
    const id = nextListener++;
    chatWatchers.set(id, cb);
    void messages.view().then(cb);
    void messages.load(chatDirty).then(() => messages.flush());
    chatDirty = false;
    chatTtlTimer ??= setInterval(() => void messages.load(), 60_000);
    return id;
  },
  unwatchMessages(id: number): void {
    release(chatWatchers.get(id));
    chatWatchers.delete(id);
    if (!chatWatchers.size && chatTtlTimer) {
      clearInterval(chatTtlTimer);
      chatTtlTimer = null;
    }
  },
  sendMessage(body: string): Promise<string> {
    return messages.write(body);
  },
  retryMessage: (clientId: string) => messages.retry(clientId),
  discardMessage: (clientId: string) => messages.discard(clientId),
  refreshMessages: () => messages.load(true),
  /** Loads the messages at app start unless the cached list is still fresh (SPEC §4). */
  prefetchMessages: () => messages.load(),

  /** Messages for the user that have no screen of their own (an i18n key and its values). */
  onNotice(cb: (key: string, params: Record<string, unknown>) => void): number {
    const id = nextListener++;
    noticeListeners.set(id, cb);
    return id;
  },

  /** Logout: forget the user's data on this device (works offline). */
  async wipe(): Promise<void> {
    token = null;
    userId = null;
    lastUnread = -1;
    chatDirty = false;
    hub.clear();
    charts.clear();
    answers.forget();
    await device.wipe();
    if (typeof caches !== 'undefined') {
      // Runtime caches (news, images) are public, but a signed-out device keeps nothing it fetched.
      const names = await caches.keys().catch(() => [] as string[]);
      await Promise.all(names.filter((n) => !n.startsWith('workbox-precache')).map((n) => caches.delete(n)));
    }
    await pushChat();
  },
};

export type SyncApi = typeof api;

expose(api);
