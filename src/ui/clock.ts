import { useSyncExternalStore } from 'react';
import { useClockOffset } from '../api/connection';

/**
 * The time, re-read once a second while something on screen shows an age (AsOf tiers move with
 * it). One timer for every subscriber, stopped with the last: a display clock, not a poll.
 */
const TICK_MS = 1_000;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;
let now = Date.now();

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  timer ??= setInterval(() => {
    now = Date.now();
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(onChange);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

/**
 * The server's time now, re-read like `useNow`: the device's clock moved by the offset the sync
 * worker measures from each answer's stamp. What is compared with a server's time — a price's as-of,
 * whether a market is in session — uses it; what the device timed itself (a fetch) keeps `useNow`.
 */
export function useServerNow(): number {
  return useNow() + useClockOffset();
}
