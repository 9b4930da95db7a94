/** A module fetched once, on first use; a failed fetch (the connection) is tried again at the next use. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

/** The signed-in parts of a first screen (src/shell/signedIn.ts): on first use or at a signed-in start. */
export const loadSignedInParts = once(() => import('./signedIn'));

/** The signed-in shell's sheets and offers (src/shell/signedInLater.ts), once the first screen has shown. */
export const loadLaterParts = once(() => import('./signedInLater'));

/** The lock screen: at a start behind the lock (src/main.tsx), or when the lock closes. */
export const loadLockScreen = once(() => import('./LockScreen'));

/** An idle period this long (ms; the browser gives at most 50) means nothing else is waiting to run. */
const QUIET_MS = 45;
let shown: Promise<void> | null = null;
/**
 * Resolves once the first screen has been committed and painted, the page has loaded and the main
 * thread is quiet (a whole idle period free: the first screen's data has come and been drawn), or
 * after 5 s at the latest, or once the user acts (a tap, a key): what waits for it is no part of the first screen's start. Called from an
 * effect of the first screen's shell (AppShell), so not before that screen has rendered (the page's
 * load event can come before its screen's chunk has). requestIdleCallback is missing in Safari: a
 * moment after the load event there.
 */
export function afterFirstScreen(): Promise<void> {
  shown ??= new Promise<void>((resolve) => {
    const started = performance.now();
    const quiet = (deadline: IdleDeadline) => {
      if (deadline.didTimeout || deadline.timeRemaining() >= QUIET_MS || performance.now() - started > 5000)
        resolve();
      else requestIdleCallback(quiet, { timeout: 5000 });
    };
    const idle = () =>
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(quiet, { timeout: 5000 })
        : setTimeout(resolve, 500);
    const loaded = () => {
      if (document.readyState === 'complete') idle();
      else window.addEventListener('load', idle, { once: true });
    };
    // After the next frame has been painted.
    requestAnimationFrame(() => setTimeout(loaded, 0));
    // At once when the user acts: a sheet a tap asks for (identity needed) shows without waiting.
    for (const type of ['pointerdown', 'keydown'])
      window.addEventListener(type, () => resolve(), { once: true, capture: true, passive: true });
  });
  return shown;
}
