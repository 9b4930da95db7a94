import { useSyncExternalStore } from 'react';
import type { ConnectionEvent } from '../../workers/events';
import { listen, worker } from './client';

export type { ConnectionEvent } from '../../workers/events';

/**
 * The one connection state of the app, as the sync worker measures it (workers/network.ts):
 * online · slow · unreachable · offline, when the server last answered, and low-data mode.
 * Every consumer — the banner, money buttons, stale marks — reads this, never navigator.onLine.
 */
let current: ConnectionEvent = {
  state: typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'online',
  lastGoodAt: null,
  since: Date.now(),
  lowData: false,
  lowDataBy: null,
};
const listeners = new Set<() => void>();
let connected = false;

function subscribe(onChange: () => void): () => void {
  if (!connected) {
    connected = true;
    listen('connection', (next) => {
      current = next;
      for (const l of listeners) l();
    });
  }
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export function useConnection(): ConnectionEvent {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}

/** The server can be reached (online or slow): data is being refreshed and money may move. */
export function useOnline(): boolean {
  const { state } = useConnection();
  return state === 'online' || state === 'slow';
}

/** The banner's "Retry now". */
export function retryNow(): void {
  void worker().retryNow();
}
