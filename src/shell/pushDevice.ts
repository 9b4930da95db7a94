/**
 * What the rest of the app needs of this device's push set-up without its subscription code
 * (src/shell/push.ts): the id kept for it and the app icon's badge. The inbox bell and watcher use
 * them from the first screen; the subscription code is fetched only where it is used (the
 * notification settings, logout).
 */

/** Where the id of this device's subscription on the server is kept (to remove it when turned off). */
export const DEVICE_KEY = 'bourse.push.device';

/** The id of this device's subscription on the server, if it has one. */
export function storedDeviceId(): number | null {
  try {
    const id = Number(localStorage.getItem(DEVICE_KEY));
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

export function keepDeviceId(id: number | null): void {
  try {
    if (id === null) localStorage.removeItem(DEVICE_KEY);
    else localStorage.setItem(DEVICE_KEY, String(id));
  } catch {}
}

/** The app icon's badge: unread inbox items (Badging API where the browser has it). */
export function setAppBadge(count: number): void {
  const nav = navigator as Navigator & {
    setAppBadge?: (n?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  if (count > 0) void nav.setAppBadge?.(count).catch(() => {});
  else void nav.clearAppBadge?.().catch(() => {});
}
