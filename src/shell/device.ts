import { worker } from '../api/client';
import { clearQuotes } from '../api/quotes';
import { onSessionWipe } from './session';

/**
 * Logout (or a session the server ended) removes the user's data from this device, online or not:
 * the device store and runtime caches (the worker), and the prices held on this side.
 * The session itself (localStorage) is cleared by endSession.
 */
let registered = false;
export function registerDeviceWipe(): void {
  if (registered) return;
  registered = true;
  onSessionWipe(() => worker().wipe());
  onSessionWipe(async () => clearQuotes());
}
