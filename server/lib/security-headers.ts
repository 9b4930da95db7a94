import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { SERVER_TIME_HEADER } from '#shared/contract/define';
import { PresetHeaders } from './preset-headers';
import { REQUEST_ID_HEADER } from './request-ids';

/**
 * The security headers of every answer (API, app shell, assets, errors), computed once at start.
 * They are the ones helmet sends with the configuration this app used (a profile showed
 * @fastify/helmet rebuilding helmet's middleware — parsing the CSP directives — on every request,
 * about 15 % of a bare answer's CPU); here each request only copies a fixed list, validated once
 * (`PresetHeaders`: no per-answer checks of names and values either).
 *
 * Only documents (the app shell, its files, the back office's pages) get the browser-document
 * headers: a Content-Security-Policy, the opener, resource and agent-cluster policies, the
 * referrer policy and the legacy switches. An answer of the API is JSON a script reads, never a
 * page a browser renders: `x-content-type-options: nosniff` with its JSON content type keeps it
 * from ever being taken for HTML, a script or a stylesheet (and lets the browser's opaque-response
 * blocking keep it out of other origins' no-cors loads), HSTS is kept in production (a browser
 * honours it on any HTTPS answer), and nothing else would protect anything: a page framing an API
 * URL gets no caller's data, since the session is the `token` header, never a cookie, which no
 * navigation sends. Those headers were about 330 bytes and nine header writes on every polled
 * answer. The API's one non-JSON read of a caller's bytes (an uploaded image) sets a sandboxing
 * policy of its own (routes/settings.ts).
 */

/** The Content-Security-Policy directives; the quote widget (iframe.html) widens frame-ancestors. */
const CSP: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'font-src': ["'self'", 'https:', 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'object-src': ["'none'"],
  // Files of our origin, and the inline scripts of the built page by hash (`inlineScriptSources`).
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // Inline style attributes (progress bars, chart sizes) and the built page's inline stylesheets.
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
};

/** The app documents' CSP; `scripts`: more script-src sources (the built page's inline script hashes). */
function contentSecurityPolicy(scripts: readonly string[] = []): string {
  return Object.entries(CSP)
    .map(
      ([name, values]) => `${name} ${(name === 'script-src' ? [...values, ...scripts] : values).join(' ')}`,
    )
    .join(';');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The `'sha256-…'` source of each inline script of a page (index.html's static shell: src/shell/boot.ts),
 * read from the built file at start so exactly those scripts run — one injected into the page would not.
 */
export function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1]!)
    .filter((code) => code.length > 0)
    .map((code) => `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
}

/** The CSP of a page partner sites may frame (iframe.html, the quote widget). */
export const EMBEDDABLE_CSP = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'self'", 'frame-ancestors *');

/**
 * The back office's pages (`/ops/`): a policy of their own, stricter than the app's —
 * nothing but our own scripts and stylesheets (no inline ones, no workers, no frames in or out),
 * images from our origin, blobs (identity photos fetched with the staff token) and https (a news
 * article's images in its preview), and calls to our own API only.
 */
export const OPS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: https:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join(';');

/** Where the back office's pages are served. */
export const OPS_PAGES = '/ops';

/** Production is served over HTTPS (behind its proxy); the demo runs on plain localhost. */
const HSTS: [string, string] = ['strict-transport-security', 'max-age=31536000; includeSubDomains'];

/** Name → value, in the order they are sent (`api`: an API answer's, `ops`: a back-office page's, else a document's). */
export function securityHeaders(options: {
  hsts: boolean;
  api?: boolean;
  ops?: boolean;
  scripts?: readonly string[];
}): Array<[string, string]> {
  if (options.api) return [...(options.hsts ? [HSTS] : []), ['x-content-type-options', 'nosniff']];
  return [
    [
      'content-security-policy',
      options.ops ? OPS_CONTENT_SECURITY_POLICY : contentSecurityPolicy(options.scripts),
    ],
    ['cross-origin-opener-policy', 'same-origin'],
    ['cross-origin-resource-policy', 'same-origin'],
    ['origin-agent-cluster', '?1'],
    ['referrer-policy', 'no-referrer'],
    ...(options.hsts ? [HSTS] : []),
    ['x-content-type-options', 'nosniff'],
    ['x-dns-prefetch-control', 'off'],
    ['x-download-options', 'noopen'],
    ['x-permitted-cross-domain-policies', 'none'],
    // The legacy XSS auditor is switched off, as current advice says (it could be abused).
    ['x-xss-protection', '0'],
  ];
}

/**
 * The two headers every answer carries beside the security headers, whose values change with each
 * answer: its request id (lib/request-ids.ts) and the server's clock (the app reads it from every
 * answer, src/shared/contract/define.ts).
 */
export const PER_ANSWER_HEADERS = [REQUEST_ID_HEADER, SERVER_TIME_HEADER] as const;

export interface SecurityHeaders {
  /** Sets every header of a document (app shell, assets) on a raw response, before its head is written. */
  apply(res: ServerResponse): void;
  /**
   * Every header an answer to `url` gets before its route runs, in one write: the API's, the back
   * office's or a document's security headers, with the request's id and the server's clock.
   */
  stamp(res: ServerResponse, url: string, requestId: string, serverTime: string): void;
  /** Sets every header of an API answer. */
  applyApi(res: ServerResponse): void;
  /** An API answer's header lines as written to a socket, each ending in CRLF (answers made by hand). */
  lines: string;
}

/** `scripts`: the sources of the app page's inline scripts (`inlineScriptSources`), if it has any. */
export function createSecurityHeaders(options: {
  hsts: boolean;
  scripts?: readonly string[];
  /** The API's path (config API_BASE): answers under it get the API's headers (`stamp`). */
  apiBase?: string;
}): SecurityHeaders {
  const document = new PresetHeaders(securityHeaders(options), PER_ANSWER_HEADERS);
  const apiList = securityHeaders({ ...options, api: true });
  const api = new PresetHeaders(apiList, PER_ANSWER_HEADERS);
  const ops = new PresetHeaders(securityHeaders({ ...options, ops: true }), PER_ANSWER_HEADERS);
  const apiBase = options.apiBase ?? '/api';
  return {
    apply: (res) => document.apply(res),
    stamp: (res, url, requestId, serverTime) =>
      (isApiPath(url, apiBase) ? api : isOpsPath(url) ? ops : document).applyWith(res, requestId, serverTime),
    applyApi: (res) => api.apply(res),
    lines: apiList.map(([n, v]) => `${n}: ${v}\r\n`).join(''),
  };
}

/** Whether a request path is the back office's pages or files (`/ops`, `/ops/…`). */
export function isOpsPath(url: string): boolean {
  return (
    url.startsWith(OPS_PAGES) && (url.length === OPS_PAGES.length || '/?#'.includes(url[OPS_PAGES.length]!))
  );
}

/** Whether a request path is answered by the API (JSON, never a document). */
function isApiPath(url: string, apiBase: string): boolean {
  return (
    (url.startsWith(apiBase) &&
      (url.length === apiBase.length || url[apiBase.length] === '/' || url[apiBase.length] === '?')) ||
    url === '/healthz' ||
    url.startsWith('/healthz?')
  );
}

/**
 * Adds the headers to every answer that goes through the routes (API, app shell, assets, 404s),
 * on the raw response so the static file plugin sees them too, with its request id and the
 * server's clock (`now`) — one hook and one write per answer, which is what every answer pays
 * before its route runs. Frame embedding is governed by CSP frame-ancestors, not
 * X-Frame-Options, because the quote widget must be embeddable.
 */
export function addSecurityHeaders(app: FastifyInstance, headers: SecurityHeaders, now: () => number): void {
  app.addHook('onRequest', (req, reply, done) => {
    headers.stamp(reply.raw, req.url, req.id, String(now()));
    done();
  });
}
