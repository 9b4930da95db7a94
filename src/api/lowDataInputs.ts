import type { LowDataPref } from '../../workers/events';

/**
 * What decides low-data mode, read where it is kept: the user's switch in Settings (on
 * the device) and the browser's hints — Save-Data or a 2G connection (navigator.connection). The
 * worker doubles every poll interval and fetches shorter chart histories while it is on; screens
 * drop news images and sparklines (`useLowData()`, src/api/connection.ts); the banner says so.
 * It imports nothing of the app: the worker's client tells the worker these at start
 * (src/api/client.ts) and the Settings switch changes them (src/api/lowData.ts).
 */
export const LOW_DATA_KEY = 'bourse.lowData';
type NetworkInformation = EventTarget & { saveData?: boolean; effectiveType?: string };

const connectionInfo = (): NetworkInformation | undefined =>
  (navigator as Navigator & { connection?: NetworkInformation }).connection;

export function browserWantsLowData(): boolean {
  const c = connectionInfo();
  return !!c && (c.saveData === true || c.effectiveType === '2g' || c.effectiveType === 'slow-2g');
}

export function readLowDataPref(): LowDataPref {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(LOW_DATA_KEY);
  return v === 'on' || v === 'off' ? v : 'auto';
}

/** Calls `tell` with the preference and the browser's hint now and whenever the connection changes. */
export function followLowDataInputs(tell: (pref: LowDataPref, browser: boolean) => void): void {
  const now = () => tell(readLowDataPref(), browserWantsLowData());
  now();
  connectionInfo()?.addEventListener('change', now);
}
