import {
  type CallResult,
  type Contract,
  contract,
  type EndpointName,
  type ReqOf,
  type ResOf,
  stableJson,
} from '#shared/contract/index';
import type { WatchlistItem } from '#shared/contract/trading';
import { createAnswerCache } from '../answers';
import { AWAY_AFTER_MS, awaySummary } from '../away';
import { chartQuery, createCharts } from '../charts';
import { createDevice } from '../device';
import { type ConnectionEvent, createEvents, type LowDataPref } from '../events';
import { createFavourites } from '../favourites';
import { type CallOptions, createHttp } from '../http';
import { createMessages } from '../messages';
import { createMoneyJournal } from '../money';
import { type Connection, createReachability, isUnreached } from '../network';
import { CANCELLED, createPoller } from '../poller';
import { createQuoteHub, extractQuotes } from '../quotes';
import { createServerClock } from '../server-clock';
import { createUploader } from '../upload';

/**
 * What every domain of the worker API shares: the session, the one request path (which feeds
 * reachability and teaches the device), the device store, the pollers, the event channel.
 * Built once per worker by `createContext()`; the domain files in this folder add the methods.
 */
export type Update<T> = (result: CallResult<T>, at: number, source: 'network' | 'device') => void;

/**
 * While unreachable the polls pause and one request probes the server — the newest screen's own
 * poll (else the config): after 1 s, 2 s, 4 s, then every 5 s (±25 %), each without waiting for
 * the one before to time out.
 */
const PROBE_MS = [1_000, 2_000, 4_000, 5_000];
/**
 * A GET sent while unreachable waits at most this long: a silent server must not hold it (and one
 * of the browser's six connections) for the full 10 s.
 */
const PROBE_TIMEOUT_MS = 5_000;
/** The last good answer is kept on the device (meta) at most this often. */
const SAVE_GOOD_EVERY_MS = 10_000;
const LAST_GOOD_KEY = 'net.lastGoodAt';

export function createContext() {
  const session = {
    baseURL: '/api',
    token: null as string | null,
    userId: null as number | null,
    visible: true,
  };
  /** The window's view of connectivity (it sees `offline` reliably); the worker's own as fallback. */
  let reportedOnline: boolean | null = null;
  const online = () =>
    reportedOnline ?? (typeof navigator === 'undefined' ? true : navigator.onLine !== false);
  const events = createEvents();

  /** Serialises outbox replays across tabs (each tab has its own worker). */
  function lock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    return locks ? (locks.request(name, fn) as Promise<T>) : fn();
  }

  /** The server ended the session: `reason` is its key (expired, or an authorization key it never issued). */
  const endSession = (reason: string) => {
    if (!session.token) return;
    session.token = null;
    events.emit('session', { reason });
  };
  const serverClock = createServerClock();
  const transport = (timeoutMs?: number) => ({
    get baseURL() {
      return session.baseURL;
    },
    getToken: () => session.token,
    onLogout: endSession,
    isOnline: online,
    clock: serverClock,
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const http = createHttp(transport());
  const probeHttp = createHttp(transport(PROBE_TIMEOUT_MS));
  const uploader = createUploader(transport());

  const device = createDevice(undefined, (err) => console.warn('device store:', err));
  const answers = createAnswerCache(device, () => session.userId);
  const hub = createQuoteHub({
    load: (symbols) => device.read((db) => db.quotes.bulkGet(symbols), []).then((r) => r.filter((q) => !!q)),
    save: (records) => device.write(device.epoch(), (db) => db.quotes.bulkPut(records)),
  });
  const poller = createPoller();

  // ── Reachability ────────────────────────────────────────────────────────────────────────────
  const reach = createReachability(() => Date.now());
  /** GETs in flight, cancelled when an outage they were caught in ends (their polls run again). */
  const inFlight = new Map<number, AbortController>();
  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  let probeTimer: ReturnType<typeof setTimeout> | null = null;
  let probeStep = 0;
  /** The last good answer before the current outage (for "while you were away"). */
  let outageFrom: number | null = null;
  let savedGoodAt = 0;
  let lowDataPref: LowDataPref = 'auto';
  let browserLowData = false;

  const lowData = () => lowDataPref === 'on' || (lowDataPref === 'auto' && browserLowData);
  const connectionEvent = (): ConnectionEvent => ({
    ...reach.view(),
    lowData: lowData(),
    lowDataBy: lowDataPref === 'on' ? 'setting' : lowData() ? 'browser' : null,
    clockOffset: serverClock.offset(),
  });
  const good = (s: Connection) => s === 'online' || s === 'slow';

  function scheduleCheck(): void {
    if (checkTimer) clearTimeout(checkTimer);
    checkTimer = null;
    const ms = reach.nextCheckIn();
    if (ms !== null) checkTimer = setTimeout(() => changed(reach.tick(), null), ms + 5);
  }

  /**
   * After every request and every state change: on the way into an outage, cancel what it
   * stranded and probe; on the first answer after one, recover calmly; tell the UI of changes.
   */
  function changed(delta: ReturnType<typeof reach.tick>, recoveredBy: number | null): void {
    scheduleCheck();
    const view = reach.view();
    if (!good(view.state)) {
      outageFrom ??= view.lastGoodAt ?? Date.now();
      if (delta) {
        // The GETs waiting now are stranded: cancel them (their polls run again on recovery) and
        // keep the browser's connections free for the probe.
        for (const controller of inFlight.values()) controller.abort();
        if (view.state === 'unreachable') scheduleProbe();
      }
    } else if (outageFrom !== null && view.lastGoodAt !== null && view.lastGoodAt > outageFrom) {
      stopProbe();
      const from = outageFrom;
      outageFrom = null;
      recover(recoveredBy, from);
    }
    if (view.lastGoodAt !== null && view.lastGoodAt - savedGoodAt >= SAVE_GOOD_EVERY_MS) {
      savedGoodAt = view.lastGoodAt;
      void device.write(device.epoch(), (db) => db.meta.put({ key: LAST_GOOD_KEY, value: savedGoodAt }));
    }
    if (!delta) return;
    poller.setActive(session.visible && good(view.state));
    events.emit('connection', connectionEvent());
  }
  // The last answer of an earlier visit: reopening the app after more than a minute away is an
  // outage too ("while you were away" lists what changed since).
  void device
    .read((db) => db.meta.get(LAST_GOOD_KEY), undefined)
    .then((rec) => {
      if (typeof rec?.value !== 'number' || reach.view().lastGoodAt !== null) return;
      outageFrom ??= rec.value;
      savedGoodAt = rec.value;
      reach.seedLastGood(rec.value);
      events.emit('connection', connectionEvent());
    });

  function recover(recoveredBy: number | null, from: number): void {
    // Requests sent before the one that got through were stranded by the outage: cancel them so
    // their polls take their turn in the calm order instead of waiting out the 10 s timeout.
    for (const [token, controller] of inFlight) {
      const sent = reach.pendingSince(token);
      if (recoveredBy === null || (sent !== undefined && sent < recoveredBy)) controller.abort();
    }
    poller.recover();
    void money.reconcile();
    void flushOutboxes();
    const until = Date.now();
    if (session.token && until - from > AWAY_AFTER_MS) {
      void awaySummary(
        (name, input) => request(name, input as never) as never,
        from,
        until,
        serverClock.toServer,
      ).then((summary) => {
        if (summary) events.emit('away', summary);
      });
    }
  }

  function scheduleProbe(): void {
    if (probeTimer) return;
    const base = PROBE_MS[Math.min(probeStep, PROBE_MS.length - 1)]!;
    probeStep += 1;
    probeTimer = setTimeout(
      () => {
        probeTimer = null;
        if (reach.view().state !== 'unreachable') return;
        // The next probe does not wait for this one: a probe sent into a silent server waits out
        // its PROBE_TIMEOUT_MS, and a server back meanwhile would be noticed only after it (at most
        // two probes are ever in flight).
        void probe();
        scheduleProbe();
      },
      base * (0.75 + Math.random() * 0.5),
    );
  }
  /** One request: the newest screen's poll, or the config when no screen polls. */
  async function probe(): Promise<void> {
    if (!(await poller.probe())) await request('config', {} as never);
  }
  function stopProbe(): void {
    if (probeTimer) clearTimeout(probeTimer);
    probeTimer = null;
    probeStep = 0;
  }

  // ── The one request path ─────────────────────────────────────────────────────────────────────
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
        if (events.has('chat')) void messages.load(true);
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
    const token = reach.start();
    const sent = reach.pendingSince(token) ?? Date.now();
    scheduleCheck();
    // A GET may be cancelled by a recovery; a money call is never cancelled (its outcome matters).
    const controller = ep.method === 'GET' && !opts.signal ? new AbortController() : null;
    if (controller) inFlight.set(token, controller);
    const short = ep.method === 'GET' && reach.view().state === 'unreachable';
    const result = await (short ? probeHttp : http)<ResOf<Contract[K]>>(
      ep,
      input,
      controller ? { ...opts, signal: controller.signal } : opts,
    );
    inFlight.delete(token);
    if (controller?.signal.aborted) {
      changed(reach.end(token, null), null);
      return { ok: false, error: CANCELLED, status: 0 };
    }
    const reached = result.ok || !isUnreached(result.status);
    changed(reach.end(token, reached), sent);
    if (result.ok) learn(name, input, result.data, Date.now(), epoch);
    // The server answers again: ask it about money calls whose answer was lost.
    if (reached && session.token && money.hasUnconfirmed()) void money.reconcile();
    return result;
  }

  // ── Domains that push ────────────────────────────────────────────────────────────────────────
  const favourites = createFavourites({
    device,
    send: (name, input) => request(name, input),
    online,
    notify: (key, symbol) => events.emit('notice', { key, params: { symbol } }),
    notifyList: (key, params, reason) =>
      events.emit('notice', { key, params: { ...params, detail: reason } }),
    lock,
  });
  const messages = createMessages({
    device,
    send: (name, input) => request(name, input as never),
    online,
    lock,
  });
  const charts = createCharts({
    poller,
    fetch: (symbol, period, market) => request('yahoo', chartQuery(symbol, period, market, lowData())),
    device,
    hub,
  });
  const money = createMoneyJournal({
    device,
    send: (name, input, key) => request(name, input as never, { idempotencyKey: key }),
    lookup: (key) => request('moneyOutcome', { key }),
    emit: (view) => events.emit('money', view),
  });

  /** Outboxes are replayed when the app comes online, signs in, and on a timer while some wait. */
  let outboxTimer: ReturnType<typeof setTimeout> | null = null;
  let outboxDelay = 5_000;
  async function flushOutboxes(): Promise<void> {
    if (!session.token || !online()) return;
    const [fav] = await Promise.all([favourites.flush(), messages.flush()]);
    const waiting = fav === 'retry' || (await favourites.pendingCount()) > 0;
    if (outboxTimer) clearTimeout(outboxTimer);
    outboxTimer = null;
    if (waiting && session.token) {
      outboxTimer = setTimeout(() => void flushOutboxes(), outboxDelay);
      outboxDelay = Math.min(outboxDelay * 2, 60_000);
    } else outboxDelay = 5_000;
  }

  function updateActivity(): void {
    changed(reach.setBrowserOnline(online()), null);
    poller.setActive(session.visible && online());
    if (online()) void flushOutboxes();
  }
  if (typeof self !== 'undefined' && 'addEventListener' in self) {
    self.addEventListener('online', updateActivity);
    self.addEventListener('offline', updateActivity);
  }

  events.on('connection', { initial: connectionEvent });
  // A phone whose clock is off learns the server's from the first answers: the UI hears it at once.
  serverClock.onChange(() => events.emit('connection', connectionEvent()));

  return {
    session,
    events,
    http,
    uploader,
    device,
    answers,
    hub,
    poller,
    favourites,
    messages,
    charts,
    money,
    request,
    online,
    flushOutboxes,
    updateActivity,
    chat: {
      takeDirty(): boolean {
        const d = chatDirty;
        chatDirty = false;
        return d;
      },
      reset(): void {
        lastUnread = -1;
        chatDirty = false;
      },
    },
    network: {
      setReportedOnline(next: boolean): void {
        reportedOnline = next;
        updateActivity();
      },
      /** "Retry now": probe at once and run every poll again. */
      retryNow(): void {
        stopProbe();
        void probe();
        if (reach.view().state === 'unreachable') scheduleProbe();
      },
      setLowData(pref: LowDataPref, browser: boolean): void {
        const before = lowData();
        lowDataPref = pref;
        browserLowData = browser;
        poller.setIntervalFactor(lowData() ? 2 : 1);
        if (before !== lowData() || pref === 'on' || pref === 'off')
          events.emit('connection', connectionEvent());
      },
      view: connectionEvent,
    },
  };
}

export type Context = ReturnType<typeof createContext>;
