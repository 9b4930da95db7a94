import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { worker } from './api/client';
import { startFirstPolls } from './api/firstPolls';
import { initI18n, loadAllMessages, prefetchMessages } from './i18n/index';
import { firstRoute, loadScreen } from './routes';
import { checkDeviceKept, registerDeviceWipe } from './shell/device';
import { startHomeScreen } from './shell/homeScreen';
import { installIosFixes } from './shell/ios';
import { lockedNow, startAppLock } from './shell/lock';
import { loadLockScreen, loadSignedInParts } from './shell/signedInParts';
import { startUpdates } from './shell/update';
import { applyStoredUpDown } from './shell/updown';
import { useSession } from './store/session';
import { FetchError } from './ui/FailureBoundary';
import './styles/global.css';

/** Lets the browser paint and handle input between the start-up steps (no long task on a slow phone). */
const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Waits until the browser has painted a frame (the static shell of index.html shows at once). */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function start(): Promise<void> {
  // Evaluating the app's modules is one task, and each step below starts a task of its own: on a
  // slow phone each takes tens of milliseconds, and together they were one long task (bench:ui).
  await yieldToMain();
  applyStoredUpDown();
  installIosFixes();
  startHomeScreen();
  registerDeviceWipe();
  // Before anything private is asked for: an app away too long opens on the lock screen.
  startAppLock();
  // The first screen's chunk and messages start downloading now, not once React has rendered the
  // router (a round trip less before the screen on a phone network; the same modules, cached).
  const first = firstRoute(window.location.pathname, useSession.getState().token !== null);
  await yieldToMain();
  if (first) {
    void loadScreen(first).catch(() => undefined);
    await yieldToMain();
    prefetchMessages(first.messages);
  }
  // A signed-in screen shows data from the sync worker (index.html's script has started it:
  // src/shell/boot.ts). It gets the session's token at once (as the shell's first effect gives it,
  // which then changes nothing), instead of after the first render. Login does not need it to paint.
  const { token, userInfo } = useSession.getState();
  // The signed-in parts of the first screen (navigation bar, banner: src/shell/signedIn.ts) beside
  // it, not after it has rendered; behind the lock, the lock screen instead. The sign-in screen has
  // none of them.
  const parts =
    token === null
      ? null
      : lockedNow()
        ? loadLockScreen().catch(() => undefined)
        : loadSignedInParts().catch(() => undefined);
  if (token !== null) {
    void worker().setToken(token, userInfo?.id ?? null);
    if (userInfo) void checkDeviceKept(userInfo.id);
    // And the polls this screen made at the last start, before the screen has rendered (src/api/firstPolls.ts);
    // not behind the lock, which shows none of them.
    if (userInfo && !lockedNow()) {
      const polls = startFirstPolls(userInfo.id, window.location.pathname);
      if (polls.length) void worker().prefetch(polls);
    }
  }
  await afterPaint();
  await initI18n();
  // Behind the lock nothing else renders: the lock screen first, not an empty page while it loads.
  if (parts && lockedNow()) await parts;
  await yieldToMain();
  const root = createRoot(document.getElementById('root')!, {
    // A part whose code could not be fetched (the connection, an outage) is shown with its retry by
    // its boundary: an expected outcome, warned about; anything else a boundary caught is an error.
    onCaughtError: (error, info) => {
      if (error instanceof FetchError) console.warn('not loaded:', error.cause ?? error);
      else console.error(error, info.componentStack);
    },
  });
  // A transition renders in slices, so the first render does not block the main thread.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
  // The service worker is not needed for the first screen: register it once the page has loaded.
  const later = () =>
    setTimeout(() => {
      void startUpdates();
      // The rest of the messages, for the next screens and any toast (src/i18n).
      void loadAllMessages().catch(() => undefined);
    }, 1000);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

void start();
