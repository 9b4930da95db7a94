import { useSyncExternalStore } from 'react';
import type { LowDataPref } from '../../workers/events';
import { worker } from './client';

/**
 * Low-data mode is on now: src/api/connection.ts reads it from the worker's view. Re-exported here
 * for the screens and the Sparkline, which keeps this module in the quote widget's chunk (the
 * widget also imports it dynamically; without a static import it moves to the kit, which the
 * widget would then download: e2e app-core 'quote widget').
 */
export { useLowData } from './connection';

/**
 * Low-data mode (issue 11): on by itself when the browser reports Save-Data or a 2G connection
 * (navigator.connection), or by the user's switch in Settings (kept on the device). The worker
 * doubles every poll interval and fetches shorter chart histories; screens drop news images and
 * sparklines (`useLowData()`); the banner area says it is on.
 */
const KEY = 'bourse.lowData';
type NetworkInformation = EventTarget & { saveData?: boolean; effectiveType?: string };

const connectionInfo = (): NetworkInformation | undefined =>
  (navigator as Navigator & { connection?: NetworkInformation }).connection;

function browserWantsLowData(): boolean {
  const c = connectionInfo();
  return !!c && (c.saveData === true || c.effectiveType === '2g' || c.effectiveType === 'slow-2g');
}

function readPref(): LowDataPref {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  return v === 'on' || v === 'off' ? v : 'auto';
}

const listeners = new Set<() => void>();
let pref: LowDataPref = typeof window === 'undefined' ? 'auto' : readPref();

function tell(): void {
  void worker().setLowData(pref, browserWantsLowData());
}

/** Called once when the worker starts: the current preference and the browser's hints, and their changes. */
export function startLowData(): void {
  tell();
  connectionInfo()?.addEventListener('change', tell);
}

export function setLowDataPref(next: LowDataPref): void {
  pref = next;
  if (next === 'auto') localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, next);
  for (const l of listeners) l();
  tell();
}

export function useLowDataPref(): LowDataPref {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => pref,
    () => pref,
  );
}
