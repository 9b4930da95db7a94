import { worker } from '../api/client';
import { useSession } from '../store/session';

/**
 * Ends the session on this device: forgets the token (every tab follows) and stops the worker
 * from using it. Device data of the user is wiped by the hooks registered here.
 */
const wipers: Array<() => Promise<void>> = [];

export function onSessionWipe(wipe: () => Promise<void>): void {
  wipers.push(wipe);
}

export async function endSession(): Promise<void> {
  useSession.getState().clear();
  await worker().setToken(null);
  await Promise.allSettled(wipers.map((w) => w()));
}
