import { LANGUAGE_KEY, type Language } from '../i18n/languages';
import { PATHS } from '../paths';
import { SESSION_KEY } from '../store/session';

/**
 * The static shell's first words (index.html, written in by the build: vite.config.ts `bootShell`).
 * Before any script file arrives, a phone that will show the login screen paints its real header —
 * brand, title and subtitle in the language the user chose — instead of grey blocks; the app's first
 * render then replaces it with the same header in the same place, so nothing moves. Every other
 * first screen keeps the neutral skeleton: its words depend on data the shell does not have.
 *
 * Signed in, it also starts the sync worker (workers/sync.worker.ts) at once: the worker is the
 * app's one door to the network, and started by the app it would only begin to download once the
 * app's own scripts had arrived and run — measured on a throttled phone, home's first data came
 * 5.6 s after the page opened, 2.3 s of it waiting for the worker's script. `worker()`
 * (src/api/client.ts) adopts it.
 *
 * The script is inline (a file would be one more round trip before the first paint) and runs
 * under the app's CSP by its hash (server/lib/security-headers.ts reads the built page).
 */

/** Where the static shell leaves the worker it started, on `window`. */
export const EARLY_WORKER = 'bourseSyncWorker';

/** Paths whose first screen, signed out, is the login screen: login itself and the start URL. */
export const BOOT_LOGIN_PATHS: readonly string[] = [PATHS.login, PATHS.home];

export type BootTexts = Record<Language, { title: string; subtitle: string }>;

/**
 * The inline script. It may only touch the shell (ids `boot-title`, `boot-subtitle`, class
 * `boot-login` on <html>) and `window[EARLY_WORKER]`, and must never throw: storage can be
 * unreadable (private modes) or hold anything; then the neutral skeleton stays and the app starts
 * its worker itself. `workerUrl`: the built worker's file (none in development).
 */
export function bootScript(texts: BootTexts, workerUrl: string | null): string {
  const words = Object.fromEntries(Object.entries(texts).map(([lng, t]) => [lng, [t.title, t.subtitle]]));
  // Plain ES5 in one line: it runs before the app, on any browser that opens the page.
  return `(function(){try{var s=window.localStorage,d=document,w=${JSON.stringify(words)},l=s.getItem(${JSON.stringify(LANGUAGE_KEY)}),t=Object.prototype.hasOwnProperty.call(w,l)?l:"en",p=${JSON.stringify(BOOT_LOGIN_PATHS)},k=JSON.parse(s.getItem(${JSON.stringify(SESSION_KEY)})||"null"),u=${JSON.stringify(workerUrl)};d.documentElement.lang=t;if(k&&k.state&&k.state.token){if(u)window[${JSON.stringify(EARLY_WORKER)}]=new Worker(u,{type:"module",name:"sync"});return}if(p.indexOf(location.pathname)<0)return;d.getElementById("boot-title").textContent=w[t][0];d.getElementById("boot-subtitle").textContent=w[t][1];d.documentElement.classList.add("boot-login")}catch(e){}})()`;
}
