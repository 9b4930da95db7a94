import { create } from 'zustand';
import { useSession } from '../store/session';

/**
 * The app lock. After the app has been in the background longer than the user's
 * setting (default 5 minutes) a lock screen comes before any private figure: `App` renders it
 * instead of every route, so nothing private is in the DOM while locked. The time hidden is
 * kept in localStorage, so an app the phone closed in the background opens locked too, and the
 * lock itself is kept there (a reload does not open it; other tabs follow). Only a signed-in
 * session locks; logout forgets it all.
 */
const LOCKED_KEY = 'bourse.lock.locked';
const HIDDEN_AT_KEY = 'bourse.lock.hiddenAt';
const AFTER_KEY = 'bourse.lock.after';

export const LOCK_CHOICES_MS = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000] as const;
export const DEFAULT_LOCK_AFTER_MS = 5 * 60_000;

const read = (key: string) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};
const write = (key: string, value: string | null) => {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode, quota): the lock still holds for this page.
  }
};

/** The user's setting: how long in the background before the app locks. */
export function lockAfterMs(): number {
  const ms = Number(read(AFTER_KEY));
  return (LOCK_CHOICES_MS as readonly number[]).includes(ms) ? ms : DEFAULT_LOCK_AFTER_MS;
}

interface LockState {
  locked: boolean;
  after: number;
  lock(): void;
  unlock(): void;
  setAfter(ms: number): void;
}

const signedIn = () => useSession.getState().token !== null;

export const useLock = create<LockState>()((set) => ({
  locked: false,
  after: DEFAULT_LOCK_AFTER_MS,
  lock: () => {
    if (!signedIn()) return;
    write(LOCKED_KEY, '1');
    set({ locked: true });
  },
  unlock: () => {
    write(LOCKED_KEY, null);
    write(HIDDEN_AT_KEY, null);
    set({ locked: false });
  },
  setAfter: (ms) => {
    write(AFTER_KEY, String(ms));
    set({ after: lockAfterMs() });
  },
}));

/** Away longer than the setting since `hiddenAt` (or locked when the app was last open). */
function dueAt(now: number): boolean {
  if (read(LOCKED_KEY) === '1') return true;
  const hiddenAt = Number(read(HIDDEN_AT_KEY));
  return hiddenAt > 0 && now - hiddenAt > lockAfterMs();
}

let started = false;

/**
 * Starts watching the app's visibility (once): locks at start when due, notes when the app goes
 * to the background (and when the page is left: a phone may close it there), and locks on return
 * when it was away too long. `now` is the clock (tests move it).
 */
export function startAppLock(now: () => number = Date.now): void {
  if (started || typeof document === 'undefined') return;
  started = true;
  useLock.setState({ after: lockAfterMs() });
  if (signedIn() && dueAt(now())) useLock.getState().lock();
  else write(HIDDEN_AT_KEY, null);
  const away = () => {
    if (signedIn() && !useLock.getState().locked) write(HIDDEN_AT_KEY, String(now()));
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') return away();
    if (signedIn() && dueAt(now())) useLock.getState().lock();
    else if (!useLock.getState().locked) write(HIDDEN_AT_KEY, null);
  });
  window.addEventListener('pagehide', away);
  // Another tab locked or unlocked.
  window.addEventListener('storage', (e) => {
    if (e.key !== LOCKED_KEY) return;
    if (e.newValue === '1') useLock.getState().lock();
    else useLock.setState({ locked: false });
  });
}

/** Logout: no lock is left for the next user of the device. */
export function clearAppLock(): void {
  useLock.getState().unlock();
}

/** Is the app locked right now (read before React starts, so a locked start asks for nothing private)? */
export const lockedNow = () => useLock.getState().locked;
