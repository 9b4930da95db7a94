import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { PresetHeaders } from './preset-headers';

/**
 * The security headers of every answer (API, app shell, assets, errors), computed once at start.
 * They are the ones helmet sends with the configuration this app used (a profile showed
 * @fastify/helmet rebuilding helmet's middleware — parsing the CSP directives — on every request,
 * about 15 % of a bare answer's CPU); here each request only copies a fixed list, validated once
 * (`PresetHeaders`: no per-answer checks of names and values either).
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
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // Inline style attributes (progress bars, chart sizes) only; no inline script anywhere.
  'style-src': ["'self'", "'unsafe-inline'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
};

export const CONTENT_SECURITY_POLICY = Object.entries(CSP)
  .map(([name, values]) => `${name} ${values.join(' ')}`)
  .join(';');

/** The CSP of a page partner sites may frame (iframe.html, the quote widget). */
export const EMBEDDABLE_CSP = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'self'", 'frame-ancestors *');

/** Name → value, in the order they are sent. */
export function securityHeaders(options: { hsts: boolean }): Array<[string, string]> {
  return [
    ['content-security-policy', CONTENT_SECURITY_POLICY],
    ['cross-origin-opener-policy', 'same-origin'],
    ['cross-origin-resource-policy', 'same-origin'],
    ['origin-agent-cluster', '?1'],
    ['referrer-policy', 'no-referrer'],
    // Production is served over HTTPS (behind its proxy); the demo runs on plain localhost.
    ...(options.hsts
      ? ([['strict-transport-security', 'max-age=31536000; includeSubDomains']] as Array<[string, string]>)
      : []),
    ['x-content-type-options', 'nosniff'],
    ['x-dns-prefetch-control', 'off'],
    ['x-download-options', 'noopen'],
    ['x-permitted-cross-domain-policies', 'none'],
    // The legacy XSS auditor is switched off, as current advice says (it could be abused).
    ['x-xss-protection', '0'],
  ];
}

export interface SecurityHeaders {
  /** Sets every header on a raw response (before its head is written). */
  apply(res: ServerResponse): void;
  /** The header lines as written to a socket, each ending in CRLF (for answers made by hand). */
  lines: string;
}

export function createSecurityHeaders(options: { hsts: boolean }): SecurityHeaders {
  const list = securityHeaders(options);
  const preset = new PresetHeaders(list);
  return {
    apply: (res) => preset.apply(res),
    lines: list.map(([n, v]) => `${n}: ${v}\r\n`).join(''),
  };
}

/**
 * Adds the headers to every answer that goes through the routes (API, app shell, assets, 404s),
 * on the raw response so the static file plugin sees them too. Frame embedding is governed by CSP
 * frame-ancestors, not X-Frame-Options, because the quote widget must be embeddable.
 */
export function addSecurityHeaders(app: FastifyInstance, headers: SecurityHeaders): void {
  app.addHook('onRequest', (_req, reply, done) => {
    headers.apply(reply.raw);
    done();
  });
}
