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
  clockOffset: 0,
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

/**
 * One value of the connection, re-rendering its component only when that value changes. An event
 * is a new object even when nothing a screen shows changed (the worker's first one, on listen): a
 * component reading the whole object re-rendered on each, and one arriving during a screen's sliced
 * (transition) render made React redo that whole render as one blocking task, since a store read
 * during it had changed — the longest task of a signed-in start on a slow phone (bench:ui).
 */
function useConnectionValue<T extends string | number | boolean | null>(
  select: (c: ConnectionEvent) => T,
): T {
  return useSyncExternalStore(
    subscribe,
    () => select(current),
    () => select(current),
  );
}

const stateOf = (c: ConnectionEvent) => c.state;
const reachable = (c: ConnectionEvent) => c.state === 'online' || c.state === 'slow';
const lowDataOf = (c: ConnectionEvent) => c.lowData;
// The banner shows when the server last answered only while it is not online.
const lastFreshOf = (c: ConnectionEvent) => (c.state === 'online' ? null : c.lastGoodAt);

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

/** When the server last answered, while it is not online (null when online, or never). */
export function useLastFresh(): number | null {
  return useConnectionValue(lastFreshOf);
}

/** The banner's "Retry now". */
export function retryNow(): void {
  void worker().retryNow();
}

const clockOffsetOf = (c: ConnectionEvent) => c.clockOffset;
/** The server's clock minus this device's, ms (src/ui/clock.ts `useServerNow` adds it). */
export function useClockOffset(): number {
  return useConnectionValue(clockOffsetOf);
}
