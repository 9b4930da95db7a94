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

/** The whole connection (the banner): re-renders on every event. */
export function useConnection(): ConnectionEvent {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
}

/**
 * One value of the connection, re-rendering its component only when that value changes: an event
 * is a new object even when the state is the same (the worker's first one, on listen), and the
 * re-render of every screen part that polls was one long task of a signed-in start.
 */
function useConnectionValue<T extends string | boolean>(select: (c: ConnectionEvent) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(current),
    () => select(current),
  );
}

const stateOf = (c: ConnectionEvent) => c.state;
const reachable = (c: ConnectionEvent) => c.state === 'online' || c.state === 'slow';
const lowDataOf = (c: ConnectionEvent) => c.lowData;

/** online · slow · unreachable · offline. */
export function useConnectionState(): ConnectionEvent['state'] {
  return useConnectionValue(stateOf);
}

/** The server can be reached (online or slow): data is being refreshed and money may move. */
export function useOnline(): boolean {
  return useConnectionValue(reachable);
}

/** Low-data mode is on now (from the worker's view: the switch or the browser). */
export function useLowData(): boolean {
  return useConnectionValue(lowDataOf);
}

/** The banner's "Retry now". */
export function retryNow(): void {
  void worker().retryNow();
}
