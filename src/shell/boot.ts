import { LANGUAGE_KEY, type Language } from '../i18n/languages';
import { PATHS } from '../paths';
import { SESSION_KEY } from '../store/session';

/**
 * The static shell's inline script (index.html; the build writes it in: src/build/first-paint.ts `bootShell`).
 * It runs before any script file has arrived:
 * - Signed out on the login screen's paths, it paints that screen's header — brand, title and
 *   subtitle in the language the user chose — instead of grey blocks; the app's first render then
 *   replaces it with the same header in the same place, so nothing moves. Every other first screen
 *   keeps the neutral skeleton: its words depend on data the shell does not have.
 * - Signed in, it starts the sync worker (workers/sync.worker.ts), the app's one door to the
 *   network: started by the app it would only begin to download once the app's own scripts had
 *   arrived and run (on a throttled phone, home's first data came 5.6 s after the page opened,
 *   2.3 s of it waiting for the worker's script). `worker()` (src/api/client.ts) adopts it.
 * - It preloads the first screen's own files: its chunks, stylesheets and message files (the app
 *   would ask for them only once its own scripts had arrived and run, a round trip later on a
 *   phone network). Which screen shows first at a path, signed in or out, is decided at build time
 *   by the app's own rule (`firstRoute`); a path with parameters is left to src/main.tsx.
 *
 * The script is inline (a file would be one more round trip before the first paint) and runs
 * under the app's CSP by its hash (server/lib/security-headers.ts reads the built page).
 */

/** Where the static shell leaves the worker it started, on `window`. */
export const EARLY_WORKER = 'bourseSyncWorker';

/** Paths whose first screen, signed out, is the login screen: login itself and the start URL. */
const BOOT_LOGIN_PATHS: readonly string[] = [PATHS.login, PATHS.home];

export type BootTexts = Record<Language, { title: string; subtitle: string }>;

/** The files of the first screen at each static path, as indexes into one list (a smaller page). */
export interface FirstScreens {
  files: string[];
  /** Per screen: its chunks and stylesheets, and which `messages` entry it waits for. */
  screens: Array<{ js: number[]; css: number[]; messages: number }>;
  /** Per set of message areas: the files each language waits for. */
  messages: Array<Partial<Record<Language, number[]>>>;
  /** Static path → the screen shown there first, [signed out, signed in]; -1: none. */
  paths: Record<string, [number, number]>;
}

export interface BootBuild {
  /** The login screen's title and subtitle in every language (from locales/). */
  texts: BootTexts;
  /** The built worker's file; null in development (the app starts it). */
  worker: string | null;
  /** Nothing in development (no built files). */
  first: FirstScreens;
}

interface BootConfig extends BootBuild {
  languageKey: string;
  sessionKey: string;
  loginPaths: readonly string[];
  workerGlobal: string;
}

/**
 * What the page runs (serialised by `bootScript`, so it may use nothing from outside itself). It
 * never throws: storage can be unreadable (private modes) or hold anything; then the neutral
 * skeleton stays and the app does the rest itself.
 */
function boot(c: BootConfig): void {
  try {
    const root = document.documentElement;
    const chosen = localStorage.getItem(c.languageKey);
    const lng = chosen !== null && Object.hasOwn(c.texts, chosen) ? (chosen as Language) : 'en';
    root.lang = lng;
    const session = JSON.parse(localStorage.getItem(c.sessionKey) ?? 'null');
    const signedIn = Boolean(session?.state?.token);
    if (!signedIn && c.loginPaths.includes(location.pathname)) {
      document.getElementById('boot-title')!.textContent = c.texts[lng].title;
      document.getElementById('boot-subtitle')!.textContent = c.texts[lng].subtitle;
      root.classList.add('boot-login');
    }
    const { first } = c;
    const at = Object.hasOwn(first.paths, location.pathname) ? first.paths[location.pathname] : undefined;
    const screen = at && first.screens[at[signedIn ? 1 : 0]];
    // As the app's own chunk loader (Vite's) asks for them, so it finds them here and asks no more.
    const preload = (rel: string, file: number, as?: string) => {
      const link = document.createElement('link');
      link.rel = rel;
      if (as) link.as = as;
      link.crossOrigin = '';
      // As the page's own scripts (vite.config.ts): the static shell's first paint needs none.
      link.fetchPriority = 'low';
      link.href = first.files[file]!;
      document.head.appendChild(link);
    };
    if (screen) {
      for (const f of screen.js) preload('modulepreload', f);
      for (const f of screen.css) preload('preload', f, 'style');
      for (const f of first.messages[screen.messages]?.[lng] ?? []) preload('modulepreload', f);
    }
    // Last: a browser without module workers throws here, after the rest is done.
    if (signedIn && c.worker)
      (window as unknown as Record<string, Worker>)[c.workerGlobal] = new Worker(c.worker, {
        type: 'module',
        name: 'sync',
      });
  } catch {
    // The skeleton stays; the app starts as it would without this script.
  }
}

/** The inline script for a build. */
export function bootScript(build: BootBuild): string {
  const config: BootConfig = {
    ...build,
    languageKey: LANGUAGE_KEY,
    sessionKey: SESSION_KEY,
    loginPaths: BOOT_LOGIN_PATHS,
    workerGlobal: EARLY_WORKER,
  };
  return `(${boot.toString()})(${JSON.stringify(config)})`;
}
