import { proxy, type Remote, wrap } from 'comlink';
import type { Topic, WorkerEvents } from '../../workers/events';
import type { SyncApi } from '../../workers/sync.worker';
import type { CallResult, Contract, EndpointName, ReqOf, ResOf } from '../shared/contract/index';
import { EARLY_WORKER } from '../shell/boot';
import { apiBase, awayAfter } from './base';
import { followLowDataInputs } from './lowDataInputs';

/**
 * The UI's one door to the network: a Comlink proxy of the sync worker (workers/sync.worker.ts).
 * Screens call `call(name, input)` or use the hooks in ./hooks and its neighbours; they never fetch.
 */
let remote: Remote<SyncApi> | null = null;

export function worker(): Remote<SyncApi> {
  if (!remote) {
    // Opened signed in, the static shell has started it already (src/shell/boot.ts).
    const slots = window as unknown as Record<string, Worker | undefined>;
    const early = slots[EARLY_WORKER];
    delete slots[EARLY_WORKER];
    const w =
      early ??
      new Worker(new URL('../../workers/sync.worker.ts', import.meta.url), {
        type: 'module',
        name: 'sync',
      });
    // An error the worker did not handle is the page's error too (a test's error capture sees it).
    w.addEventListener('error', (e) =>
      reportError(e.error ?? new Error(`sync worker: ${e.message || 'its script did not load'}`)),
    );
    const r = wrap<SyncApi>(w);
    remote = r;
    void r.configure({ baseURL: apiBase(), ...awayAfter() });
    void r.setOnline(navigator.onLine);
    void r.setVisible(document.visibilityState === 'visible');
    document.addEventListener(
      'visibilitychange',
      () => void r.setVisible(document.visibilityState === 'visible'),
    );
    window.addEventListener('online', () => void r.setOnline(true));
    window.addEventListener('offline', () => void r.setOnline(false));
    followLowDataInputs((pref, browser) => void r.setLowData(pref, browser));
  }
  return remote;
}

/**
 * A subscription in the worker (a topic listener, a poll, a chart): `start` answers its id; the
 * function returned ends it — also when called before the id arrived.
 */
export function subscription(start: () => Promise<number>): () => void {
  let id: number | null = null;
  let ended = false;
  void start().then((got) => {
    if (ended) void worker().unlisten(got);
    else id = got;
  });
  return () => {
    if (ended) return;
    ended = true;
    if (id !== null) void worker().unlisten(id);
  };
}

/** Listens to one topic of the worker's event channel (workers/events.ts); answers its unlisten. */
export function listen<K extends Topic>(topic: K, cb: (payload: WorkerEvents[K]) => void): () => void {
  return subscription(() => worker().listen(topic, proxy(cb) as never));
}

/** The server ended the session (logout answer or 401). */
export function onSessionEnded(listener: (reason: string) => void): () => void {
  return listen('session', (e) => listener(e.reason));
}

/** Messages the worker raises outside any screen (e.g. an offline favourite the server refused). */
export function onNotice(listener: (key: string, params: Record<string, unknown>) => void): () => void {
  return listen('notice', (e) => listener(e.key, e.params));
}

export type Input<K extends EndpointName> = ReqOf<Contract[K]>;
export type Output<K extends EndpointName> = ResOf<Contract[K]>;

/**
 * One call. Money calls (contract `money: true`) are refused offline and never retried by the
 * worker; pass `idempotencyKey` (newIdempotencyKey()) and reuse it when the user retries the same
 * action, so a retry after a timeout cannot move money twice.
 */
export async function call<K extends EndpointName>(
  name: K,
  input: Input<K>,
  /** `token`: another token than the session's (the step of a two-factor sign-in). */
  options: { idempotencyKey?: string; token?: string } = {},
): Promise<CallResult<Output<K>>> {
  // The worker cancels GETs caught in an outage when it ends (workers/poller.ts CANCELLED); polls run
  // again by themselves, a one-shot call is sent again here, as its message promises. Money calls
  // are never cancelled.
  for (let attempt = 1; ; attempt++) {
    const result = (await worker().call(name, input, options)) as CallResult<Output<K>>;
    if (result.ok || result.error !== 'errors.cancelled' || attempt === 3) return result;
  }
}

/**
 * A money call through the worker's journal (workers/money.ts): the key is on the device before
 * the request leaves; a lost answer resolves as `core.money.unconfirmed`. Use `useMoneyCall`.
 */
export function sendMoney<K extends EndpointName>(
  name: K,
  input: Input<K>,
  idempotencyKey: string,
): Promise<CallResult<Output<K>>> {
  return worker().sendMoney(name, input, idempotencyKey) as Promise<CallResult<Output<K>>>;
}

/** The user lets a never-received money call go. */
export function forgetMoney(key: string): Promise<void> {
  return worker().forgetMoney(key);
}

/** A fresh key for one money action; reuse it when the user retries that same action. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/**
 * Shrinks an identity photo in the sync worker and uploads it; `onProgress` gets 0..1 as it goes.
 * The answer carries the upload's url (for the KYC form) and the prepared image (for a preview).
 */
export function uploadImage(file: Blob, onProgress?: (sent: number) => void) {
  return worker().uploadImage(file, onProgress ? proxy(onProgress) : undefined);
}

/** The realised P&L statement of a financial year as CSV, built by the sync worker. */
export function statementCsv(fy: number, labels: Parameters<SyncApi['statementCsv']>[1], currency: string) {
  return worker().statementCsv(fy, labels, currency);
}

/**
 * Whether the release this page runs was replaced on the server: its own script answers 404 (the
 * server answers 404 for a file that is not there, never the app page). A screen that could not be
 * fetched then loads the new release instead of failing (src/shell/ScreenBoundary.tsx).
 */
export function releaseGone(): Promise<boolean> {
  const script = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src;
  return script ? worker().fileGone(script) : Promise.resolve(false);
}
