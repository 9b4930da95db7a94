import { create } from 'zustand';

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

export async function startUpdates(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { Workbox } = await import('workbox-window');
  const wb = new Workbox('/sw.js', { scope: '/' });
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    window.location.reload();
  };
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
  const registration = await wb.register();
  const check = () => {
    if (document.visibilityState === 'visible' && navigator.onLine)
      void registration?.update().catch(() => {});
  };
  setInterval(check, CHECK_EVERY_MS);
  document.addEventListener('visibilitychange', check);
}
