import {
  type CallResult,
  type Contract,
  contract,
  type EndpointName,
  type ReqOf,
  type ResOf,
} from '#shared/contract/index';
import { createAnswerCache } from '../answers';
import { AWAY_AFTER_MS, awaySummary } from '../away';
import { chartQuery, createCharts } from '../charts';
import { createConnection, isGood, PROBE_TIMEOUT_MS } from '../connection';
import { createDevice } from '../device';
import { type ConnectionEvent, createEvents, type LowDataPref } from '../events';
import { createFavourites } from '../favourites';
import { type CallOptions, createHttp } from '../http';
import { createMessages } from '../messages';
import { createMoneyJournal } from '../money';
import { isUnreached } from '../network';
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

export function createContext() {
  const session = {
    baseURL: '/api',
    /** How long without a good answer is an outage worth "while you were away" (configure). */
    awayAfterMs: AWAY_AFTER_MS,
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
    const locks = (globalThis.navigator as NavigatorLocks | undefined)?.locks;
    return locks ? (locks.request(name, fn) as Promise<T>) : fn();
  }

  /**
   * The server ended the session `token`: `reason` is its key (expired, or an authorization key it
   * never issued). A refusal of a token since replaced (signed in again meanwhile) ends nothing.
   */
  const endSession = (reason: string, token: string) => {
    if (!session.token || session.token !== token) return;
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

  // ── Reachability (connection.ts) ───────────────────────────────────────────────────────────
  let lowDataPref: LowDataPref = 'auto';
  let browserLowData = false;
  const lowData = () => lowDataPref === 'on' || (lowDataPref === 'auto' && browserLowData);
  const connection = createConnection({
    device,
    poller,
    visible: () => session.visible,
    probeRequest: () => request('config', {} as never),
    recovered(from) {
      void money.reconcile();
      void flushOutboxes();
      const until = Date.now();
      if (session.token && until - from > session.awayAfterMs) {
        void awaySummary(
          (name, input) => request(name, input as never) as never,
          from,
          until,
          serverClock.toServer,
        ).then((summary) => {
          if (summary) events.emit('away', summary);
        });
      }
    },
  });
  const connectionEvent = (): ConnectionEvent => ({
    ...connection.view(),
    lowData: lowData(),
    lowDataBy: lowDataPref === 'on' ? 'setting' : lowData() ? 'browser' : null,
    clockOffset: serverClock.offset(),
  });
  connection.subscribe(() => events.emit('connection', connectionEvent()));

  // ── The one request path ─────────────────────────────────────────────────────────────────────
  let lastUnread = -1;
  /** The server has replies the cached chat list may not: the next chat screen refetches. */
  let chatDirty = false;
  /** What a domain learns from a good answer of one call (favourites, the unread count…). */
  type AnswerHook = (input: unknown, data: unknown, at: number) => void;
  const answerHooks = new Map<EndpointName, AnswerHook[]>();

  /** Every good answer teaches the device something: prices, the offline copy, and what domains asked for. */
  function learn(name: EndpointName, input: unknown, data: unknown, at: number, epoch: number): void {
    const quotes = extractQuotes(name, data, at);
    if (quotes.length) hub.ingest(quotes);
    if (contract[name].method === 'GET' && answers.cacheable(name))
      void answers.write(name, input, data, at, epoch);
    for (const hook of answerHooks.get(name) ?? []) hook(input, data, at);
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
    const tracked = connection.begin(ep.method === 'GET', !opts.signal);
    const result = await (tracked.short ? probeHttp : http)<ResOf<Contract[K]>>(
      ep,
      input,
      tracked.signal ? { ...opts, signal: tracked.signal } : opts,
    );
    const reached = result.ok || !isUnreached(result.status);
    if (tracked.end(reached)) return { ok: false, error: CANCELLED, status: 0 };
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
    reachable: () => connection.good(),
  });
  // A chart that waits for its first candles is told when the server stops answering.
  connection.subscribe((view) => {
    if (!isGood(view.state)) charts.unreachable();
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
    connection.setBrowserOnline(online());
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
    /** A domain learns from every good answer of `name` (registered once, at the worker's start). */
    onAnswer<K extends EndpointName>(
      name: K,
      hook: (input: ReqOf<Contract[K]>, data: ResOf<Contract[K]>, at: number) => void,
    ): void {
      answerHooks.set(name, [...(answerHooks.get(name) ?? []), hook as AnswerHook]);
    },
    chat: {
      /** The unread count the server answered: a new agent reply refreshes the chat. */
      heard(count: number): void {
        // A new agent reply: refresh the chat for the screens that show it, or, when none does, at
        // the next one that opens (the 30-minute cache would otherwise hide the reply the badge counts).
        if (count > 0 && count > lastUnread) {
          if (events.has('chat')) void messages.load(true);
          else chatDirty = true;
        }
        lastUnread = count;
      },
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
    connection,
    network: {
      setReportedOnline(next: boolean): void {
        reportedOnline = next;
        updateActivity();
      },
      /** "Retry now": probe at once and run every poll again. */
      retryNow(): void {
        connection.retryNow();
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
