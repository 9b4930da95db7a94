/**
 * Where the API is (SPEC §1: the app can run inside a hybrid app shell). By default the build's
 * `VITE_API_BASE`, a path on the origin the app is served from (`/api`). A page hosting the app
 * elsewhere — a hybrid shell serving these files from its own origin — names the API before the
 * app's scripts run (a document-start script): `window.BOURSE_API_BASE = 'https://api.example/api'`.
 * Only an http(s) URL or an absolute path is taken; the server must list the shell's origin in
 * CORS_ORIGINS.
 */
const BUILT = (import.meta.env.VITE_API_BASE ?? '/api').replace(/\/$/, '');

declare global {
  interface Window {
    BOURSE_API_BASE?: unknown;
    BOURSE_AWAY_AFTER_MS?: unknown;
  }
}

/**
 * How long without the server makes "while you were away" worth showing: the worker's minute
 * (workers/away.ts) unless the page set `window.BOURSE_AWAY_AFTER_MS` before the app's scripts (the
 * journeys do, so that an outage need not last a minute of their time). A whole number of ms.
 */
export function awayAfter(): { awayAfterMs?: number } {
  const set = typeof window === 'undefined' ? undefined : window.BOURSE_AWAY_AFTER_MS;
  return Number.isSafeInteger(set) && (set as number) > 0 ? { awayAfterMs: set as number } : {};
}

export function apiBase(): string {
  const set = typeof window === 'undefined' ? undefined : window.BOURSE_API_BASE;
  if (set === undefined) return BUILT;
  if (typeof set === 'string' && (/^https?:\/\/[^/]/i.test(set) || /^\/(?!\/)/.test(set)))
    return set.replace(/\/$/, '');
  console.error(`BOURSE_API_BASE must be an http(s) URL or a path; using ${BUILT}`);
  return BUILT;
}

/**
 * Whether the API is on the origin the app is served from. Only then does the service worker run:
 * its caches and routes are for that origin's API, and a shell serving the files elsewhere
 * brings its own.
 */
export function servedWithApi(): boolean {
  return new URL(apiBase(), window.location.href).origin === window.location.origin;
}
