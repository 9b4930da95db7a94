import { useSyncExternalStore } from 'react';
import type { LowDataPref } from '../../workers/events';
import { worker } from './client';
import { browserWantsLowData, LOW_DATA_KEY, readLowDataPref } from './lowDataInputs';

/**
 * The Settings switch of low-data mode: kept on the device ('auto' forgets it) and told to the
 * worker at once. Whether the mode is on now is the worker's view: `useLowData()` in
 * src/api/connection.ts.
 */
const listeners = new Set<() => void>();
let pref: LowDataPref = typeof window === 'undefined' ? 'auto' : readLowDataPref();

export function setLowDataPref(next: LowDataPref): void {
  pref = next;
  if (next === 'auto') localStorage.removeItem(LOW_DATA_KEY);
  else localStorage.setItem(LOW_DATA_KEY, next);
  for (const l of listeners) l();
  void worker().setLowData(pref, browserWantsLowData());
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
