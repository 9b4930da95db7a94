import { create } from 'zustand';
import { servedWithApi } from '../api/base';

/**
 * New versions (service worker updates). A new build installs in the background and waits; the
 * shell then offers "New version available — Reload". Nothing reloads unless the user taps Reload.
 */
interface UpdateState {
  /** A new version waits (or already controls another tab): reloading picks it up. */
  available: boolean;
  /** Set by startUpdates: activates the waiting version and reloads this page once it controls. */
  apply: () => void;
}

export const useUpdate = create<UpdateState>()(() => ({
  available: false,
  apply: () => window.location.reload(),
}));

/** How often an open app checks for a new build. */
const CHECK_EVERY_MS = 30 * 60 * 1000;
/** A route change checks too, at most this often (the browser's own checks come when they will). */
const ROUTE_CHECK_MS = 10_000;

let check: (() => void) | null = null;
let lastCheck = 0;

/** Looks for a new build on a route change (UpdatePrompt), unless one was looked for just now. */
export function checkForUpdate(): void {
  if (Date.now() - lastCheck < ROUTE_CHECK_MS) return;
  check?.();
}

export async function startUpdates(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (!servedWithApi()) {
    // Served by a hybrid shell from another origin than the API: no service worker (one left by an
    // earlier setup goes).
    void navigator.serviceWorker.getRegistration().then((r) => r?.unregister());
    return;
  }
  // The import fails where the page goes away while it loads (Firefox rejects it then) or where
  // the chunk cannot be fetched: updates are looked for on the next load, no error is left behind.
  const loaded = await import('workbox-window').catch(() => null);
  if (!loaded) return;
  const { Workbox } = loaded;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  };
  /**
   * A Workbox for the shell's worker, registered. Workbox registers an instance once, so a new
   * registration takes a new instance: the one before it failed or never finished.
   */
  const register = async (): Promise<ServiceWorkerRegistration | undefined> => {
    const wb = new Workbox('/sw.js', { scope: '/' });
    wb.addEventListener('waiting', () => {
      useUpdate.setState({
        available: true,
        apply: () => {
          // The new worker takes over, then this page reloads into it (and only this page).
          wb.addEventListener('controlling', reload);
          wb.messageSkipWaiting();
        },
      });
    });
    // Another tab accepted the update: this page still runs the old code, so offer the reload.
    wb.addEventListener('controlling', (e) => {
      if (e.isExternal && !reloading) useUpdate.setState({ available: true, apply: reload });
    });
    return wb.register().catch(() => undefined);
  };
  // Unreachable server at the first visit: no worker yet.
  await register();
  check = () => {
    if (document.visibilityState !== 'visible' || !navigator.onLine) return;
    lastCheck = Date.now();
    // A first install that failed (the connection went while it precached the shell) leaves no
    // worker: the browser drops the registration, and updating it would find nothing. Registering
    // again on the next look gives this open app its offline shell without waiting for a relaunch.
    void navigator.serviceWorker
      .getRegistration('/')
      .then(async (live) => {
        if (live) await live.update();
        else await register();
      })
      .catch(() => {});
  };
  lastCheck = Date.now();
  setInterval(() => check?.(), CHECK_EVERY_MS);
  document.addEventListener('visibilitychange', () => check?.());
  // Back online after a spell without a connection: the moment a failed first install can finish.
  window.addEventListener('online', () => check?.());
}
