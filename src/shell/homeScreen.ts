import { create } from 'zustand';
import { useSession } from '../store/session';
import { isIos } from './ios';

/**
 * Home-screen users. Where the browser can install the app (`beforeinstallprompt`), an
 * "Install app" offer shows after a sign-in made on this page — never on first paint — until it is
 * taken or dismissed once (never asked again). On iOS, which has no prompt, a short "Share → Add to
 * Home Screen" guide shows once after a sign-in and stays reachable from Settings. Installed or
 * signed in, the app asks once for persistent storage (`navigator.storage.persist()`), so the
 * browser keeps its offline data; Settings shows the answer.
 */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface HomeScreenState {
  /** The browser's install prompt, kept for the user's tap. */
  prompt: InstallPromptEvent | null;
  /** A sign-in happened on this page (the offer never shows before one). */
  signedInHere: boolean;
  /** The "Install app" offer was taken or dismissed (kept: it is never shown again). */
  declined: boolean;
  /** The iOS guide is open. */
  guide: boolean;
}

const DECLINED = 'bourse.install.declined';
const GUIDE_SHOWN = 'bourse.install.iosGuideShown';
const PERSIST_ASKED = 'bourse.storage.persistAsked';

const stored = (key: string) => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};
const keep = (key: string) => {
  try {
    localStorage.setItem(key, '1');
  } catch {}
};

export const useHomeScreen = create<HomeScreenState>()(() => ({
  prompt: null,
  signedInHere: false,
  declined: stored(DECLINED) === '1',
  guide: false,
}));

/** Opened from the home screen (or as an installed app): no offer, no guide, no desktop warning. */
export function isStandalone(): boolean {
  if (typeof window === 'undefined') return false;
  const nav = navigator as Navigator & { standalone?: boolean };
  return nav.standalone === true || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** Whether the "Install app" offer shows now. */
export function useInstallOffer(): boolean {
  return useHomeScreen((h) => h.prompt !== null && h.signedInHere && !h.declined && !isStandalone());
}

export async function install(): Promise<void> {
  const { prompt } = useHomeScreen.getState();
  if (!prompt) return;
  keep(DECLINED);
  useHomeScreen.setState({ prompt: null, declined: true });
  await prompt.prompt();
  if ((await prompt.userChoice).outcome === 'accepted') void askPersistence();
}

export function dismissInstall(): void {
  keep(DECLINED);
  useHomeScreen.setState({ declined: true });
}

export function openIosGuide(open = true): void {
  useHomeScreen.setState({ guide: open });
}

/** Whether this browser is iOS Safari not yet on the home screen (the guide's audience). */
export function iosCanAdd(): boolean {
  return isIos() && !isStandalone();
}

/** Asks the browser once to keep the app's data; the answer is read again by `persisted()`. */
export async function askPersistence(): Promise<void> {
  if (stored(PERSIST_ASKED) === '1' || !navigator.storage?.persist) return;
  keep(PERSIST_ASKED);
  await navigator.storage.persist().catch(() => false);
}

/** Whether the browser keeps the app's data (null: it cannot say). */
export async function persisted(): Promise<boolean | null> {
  if (!navigator.storage?.persisted) return null;
  return navigator.storage.persisted().catch(() => null);
}

let started = false;
/** Listens for the install prompt and for sign-ins (main.tsx, before the first render). */
export function startHomeScreen(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('beforeinstallprompt', (e) => {
    // The browser's own mini-infobar would be first paint's nag: the offer comes after a sign-in.
    e.preventDefault();
    useHomeScreen.setState({ prompt: e as InstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => {
    useHomeScreen.setState({ prompt: null });
    void askPersistence();
  });
  if (isStandalone()) void askPersistence();
  useSession.subscribe((now, before) => {
    if (now.token === null || before.token !== null) return;
    useHomeScreen.setState({ signedInHere: true });
    void askPersistence();
    if (iosCanAdd() && stored(GUIDE_SHOWN) !== '1') {
      keep(GUIDE_SHOWN);
      openIosGuide();
    }
  });
}
