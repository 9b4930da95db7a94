import { worker } from '../api/client';
import { forgetFirstPolls } from '../api/firstPolls';
import { clearQuotes } from '../api/quotes';
import { useSession } from '../store/session';
import { resetInboxWatcher } from './inboxSeen';
import { clearAppLock } from './lock';
import { keepDeviceId, setAppBadge } from './pushDevice';
import { endSession, onSessionWipe } from './session';

/**
 * Logout (or a session the server ended) removes the user's data from this device, online or not:
 * the device store and runtime caches (the worker), the prices held on this side, and what the
 * inbox watcher has seen (the next user's alerts are measured against their own inbox), and the
 * first screen's polls remembered for the next start (src/api/firstPolls.ts), the app lock, and
 * this device's push subscription (nothing of the user reaches a signed-out device).
 * The session itself (localStorage) is cleared by endSession.
 */
let registered = false;
export function registerDeviceWipe(): void {
  if (registered) return;
  registered = true;
  onSessionWipe(() => worker().wipe());
  onSessionWipe(async () => clearQuotes());
  onSessionWipe(async () => resetInboxWatcher());
  onSessionWipe(async () => forgetFirstPolls());
  onSessionWipe(async () => localStorage.removeItem(MARKED));
  onSessionWipe(async () => clearAppLock());
  // The subscription code (src/shell/push.ts) is fetched at logout, not carried by every start.
  // Not fetched (offline before the shell was cached), the device still forgets its push id and
  // badge, as an unsubscribe offline (which fails) leaves it.
  onSessionWipe(() =>
    import('./push').then(
      (push) => push.forgetPush(),
      async () => {
        setAppBadge(0);
        keepDeviceId(null);
      },
    ),
  );
  // A sign-in marks the device store as this user's (checked by `deviceCleared` at later starts).
  useSession.subscribe((now, before) => {
    const user = now.userInfo?.id;
    if (now.token === null || before.token !== null || user === undefined) return;
    sessionStorage.removeItem(CLEARED);
    void worker()
      .markDevice(user)
      .then(() => localStorage.setItem(MARKED, String(user)));
  });
}

/** localStorage: the user whose mark the device store was given at sign-in. */
const MARKED = 'bourse.device.marked';
/** sessionStorage: this tab started after the browser cleared the device store (the login says so). */
export const CLEARED = 'bourse.device.cleared';

/**
 * At a signed-in start: the browser cleared the device store since this user signed in (WebKit
 * removes a site's script-written storage after 7 days unused unless installed; storage pressure
 * may too) while the session survived. The app then starts cleanly: the session ends and the
 * sign-in screen says why. A store that cannot be read at all (no IndexedDB) is not "cleared".
 */
export async function checkDeviceKept(user: number): Promise<void> {
  if (localStorage.getItem(MARKED) !== String(user)) return;
  if ((await worker().deviceMarked(user)) !== false) return;
  sessionStorage.setItem(CLEARED, '1');
  await endSession();
}
