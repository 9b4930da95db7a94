import { useEffect, useSyncExternalStore } from 'react';
import { worker } from '../api/client';
import type { DeviceViewName, DeviceViews, Host, Publish } from './views';

/**
 * What screens show of the device store, read on the UI thread with Dexie's `useLiveQuery` (DESIGN
 * "Shape": the worker writes the store, screens read it). The queries (LiveQueries.tsx, with Dexie
 * and dexie-react-hooks) are a chunk of their own, loaded when a screen first asks for a view; this
 * module is only in the chunks of the screens that ask, so no other screen carries any of it. Until
 * a query has answered, a screen sees its fallback. Each query runs while some component wants it;
 * when the last one goes, its value is forgotten (a later user of the device never sees an
 * earlier one's).
 */
const values: Partial<DeviceViews> = {};
const wanted = new Map<DeviceViewName, number>();
let names: DeviceViewName[] = [];
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};
const subscribe = (cb: () => void) => {
  listeners.add(cb);
  return () => listeners.delete(cb);
};
const publish: Publish = (name, value) => {
  values[name] = value;
  changed();
};
const host: Host = { names: () => names, subscribe, publish, storeName: () => worker().deviceStore() };
let started = false;

function want(name: DeviceViewName): () => void {
  if (!started) {
    started = true;
    // Not fetched (offline before the app was cached): the next screen that asks tries again.
    void import('./LiveQueries').then(
      (m) => m.start(host),
      () => {
        started = false;
      },
    );
  }
  const count = (n: number) => {
    if (n > 0) wanted.set(name, n);
    else wanted.delete(name);
    if (n < 2) {
      names = [...wanted.keys()];
      changed();
    }
  };
  count((wanted.get(name) ?? 0) + 1);
  return () => count((wanted.get(name) ?? 1) - 1);
}

/** One view of the device store, live: `fallback` (a stable value) until its query has answered. */
export function useDeviceView<K extends DeviceViewName, F>(name: K, fallback: F): DeviceViews[K] | F {
  useEffect(() => want(name), [name]);
  const read = () => values[name] ?? fallback;
  return useSyncExternalStore(subscribe, read, read);
}
