import { proxy, type Remote, wrap } from 'comlink';
import type { SyncApi } from '../../workers/sync.worker';
import type { CallResult, Contract, EndpointName, ReqOf, ResOf } from '../shared/contract/index';

/**
 * The UI's one door to the network: a Comlink proxy of the sync worker (workers/sync.worker.ts).
 * Screens call `call(name, input)` or use the hooks in ./hooks and its neighbours; they never fetch.
 */
let remote: Remote<SyncApi> | null = null;
let endedListener: ((reason: string) => void) | null = null;
const noticeListeners = new Set<(key: string, params: Record<string, unknown>) => void>();

export function worker(): Remote<SyncApi> {
  if (!remote) {
    const w = new Worker(new URL('../../workers/sync.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sync',
    });
    const r = wrap<SyncApi>(w);
    remote = r;
    void r.configure({ baseURL: import.meta.env.VITE_API_BASE ?? '/api' });
    void r.onSessionEnded(proxy((reason: string) => endedListener?.(reason)));
    void r.onNotice(
      proxy((key: string, params: Record<string, unknown>) => {
        for (const l of noticeListeners) l(key, params);
      }),
    );
    void r.setOnline(navigator.onLine);
    void r.setVisible(document.visibilityState === 'visible');
    document.addEventListener(
      'visibilitychange',
      () => void r.setVisible(document.visibilityState === 'visible'),
    );
    window.addEventListener('online', () => void r.setOnline(true));
    window.addEventListener('offline', () => void r.setOnline(false));
  }
  return remote;
}

export function onSessionEnded(listener: (reason: string) => void): void {
  endedListener = listener;
}

/** Messages the worker raises outside any screen (e.g. an offline favourite the server refused). */
export function onNotice(listener: (key: string, params: Record<string, unknown>) => void): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}

export type Input<K extends EndpointName> = ReqOf<Contract[K]>;
export type Output<K extends EndpointName> = ResOf<Contract[K]>;

/**
 * One call. Money calls (contract `money: true`) are refused offline and never retried by the
 * worker; pass `idempotencyKey` (newIdempotencyKey()) and reuse it when the user retries the same
 * action, so a retry after a timeout cannot move money twice.
 */
export function call<K extends EndpointName>(
  name: K,
  input: Input<K>,
  options: { idempotencyKey?: string } = {},
): Promise<CallResult<Output<K>>> {
  return worker().call(name, input, options) as Promise<CallResult<Output<K>>>;
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
