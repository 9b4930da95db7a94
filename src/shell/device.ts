import { worker } from '../api/client';
import { forgetFirstPolls } from '../api/firstPolls';
import { clearQuotes } from '../api/quotes';
import { resetInboxWatcher } from './Inbox';
import { onSessionWipe } from './session';

/**
 * Logout (or a session the server ended) removes the user's data from this device, online or not:
 * the device store and runtime caches (the worker), the prices held on this side, and what the
 * inbox watcher has seen (the next user's alerts are measured against their own inbox), and the
 * first screen's polls remembered for the next start (src/api/firstPolls.ts).
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
}
