import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, EMBEDDABLE_CSP, securityHeaders } from '../../server/lib/security-headers';
import { startTestServer, type TestServer } from '../support/server';
import { upload } from '../support/wallet';

/**
 * Every kind of answer carries its security headers (computed once at start, not per request): API
 * answers and refusals, snapshot answers and their 304s, the app shell, assets and errors. The
 * browser-document headers (a Content-Security-Policy, frame, opener and referrer policies, the
 * legacy switches) are on documents only: an API answer is JSON with nosniff, and none of them
 * protects it. The app's documents get the app's policy, and the quote widget alone may be framed
 * by other sites. Headers do not depend on the database, so SQLite alone is enough here.
 */
const BOOT = "document.documentElement.lang='de'";

describe('security headers', () => {
  let s: TestServer;
  let prod: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-dist-'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><title>Bourse</title><script type="module" src="/assets/app-1234.js"></script><script>${BOOT}</script>`,
    );
    fs.writeFileSync(path.join(dist, 'iframe.html'), '<!doctype html><title>Quote</title>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    s = await startTestServer('sqlite', { DIST_DIR: dist });
    prod = await startTestServer('sqlite', {
      DIST_DIR: dist,
      NODE_ENV: 'production',
      INVITE_CODE: 'PRODCODE77',
      DEMO_USER: '0',
    }).catch(() => undefined as unknown as TestServer);
  });
  afterAll(async () => {
    await s?.close();
    await prod?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  // The built page's one inline script (its static shell's, src/shell/boot.ts) runs by its hash.
  const bootHash = `'sha256-${createHash('sha256').update(BOOT).digest('base64')}'`;
  const documentHeaders = securityHeaders({ hsts: false, scripts: [bootHash] });
  const apiHeaders = securityHeaders({ hsts: false, api: true });

  /** What a JSON answer must not carry: the headers only a rendered document needs. */
  const DOCUMENT_ONLY = [
    'content-security-policy',
    'x-frame-options',
    'cross-origin-opener-policy',
    'cross-origin-resource-policy',
    'origin-agent-cluster',
    'referrer-policy',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-permitted-cross-domain-policies',
    'x-xss-protection',
  ];

  it('sends the document headers on documents only, and nosniff on every answer', async () => {
    const { token } = await s.signUp();
    const quote = await s.call('quote', { query: { symbol: 'AAPL' } });
    const answers = {
      healthz: await s.app.inject({ method: 'GET', url: '/healthz' }),
      'api ok': await s.call('config'),
      'api with a session': await s.call('balance', { token }),
      'api 400': await s.call('login', { body: 'x', headers: { 'content-type': 'application/json' } }),
      'api 401': await s.call('balance'),
      'api 404': await s.api('GET', '/nothing'),
      snapshot: quote,
      'snapshot 304': await s.call('quote', {
        query: { symbol: 'AAPL' },
        headers: { 'if-none-match': String(quote.headers.etag) },
      }),
      'bad url': await s.api('GET', '/v2/config%'),
    };
    const documents = {
      'app shell': await s.app.inject({ method: 'GET', url: '/markets' }),
      'app shell (a path that only starts like the API)': await s.app.inject({
        method: 'GET',
        url: '/apiary',
      }),
      asset: await s.app.inject({ method: 'GET', url: '/assets/app-1234.js' }),
    };
    expect(answers['snapshot 304'].status).toBe(304);
    expect(documents['app shell (a path that only starts like the API)'].statusCode).toBe(200);
    const check = (
      all: Record<string, { headers: Record<string, unknown> }>,
      expected: Array<[string, string]>,
    ) => {
      for (const [kind, res] of Object.entries(all)) {
        for (const [name, value] of expected) expect(res.headers[name], `${kind}: ${name}`).toBe(value);
        expect(res.headers['strict-transport-security'], kind).toBeUndefined();
      }
    };
    check(answers, apiHeaders);
    check(documents, documentHeaders);
    expect(apiHeaders).toEqual([['x-content-type-options', 'nosniff']]);
    for (const [kind, res] of Object.entries(answers)) {
      expect(res.headers['x-content-type-options'], kind).toBe('nosniff');
      for (const name of DOCUMENT_ONLY) expect(res.headers[name], `${kind}: ${name}`).toBeUndefined();
    }
    // Documents keep every one of them (frame embedding is CSP frame-ancestors', not X-Frame-Options').
    for (const [kind, res] of Object.entries(documents))
      for (const name of DOCUMENT_ONLY.filter((n) => n !== 'x-frame-options'))
        expect(res.headers[name], `${kind}: ${name}`).toBeDefined();
    expect(CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
    const shellPolicy = String(documents['app shell'].headers['content-security-policy']);
    expect(shellPolicy).toContain(`script-src 'self' ${bootHash};`);
    expect(shellPolicy).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('lets partner pages frame the quote widget and nothing else', async () => {
    const widget = await s.app.inject({ method: 'GET', url: '/iframe.html' });
    expect(widget.statusCode).toBe(200);
    expect(widget.headers['content-security-policy']).toBe(EMBEDDABLE_CSP);
    expect(EMBEDDABLE_CSP).toContain('frame-ancestors *');
    const shell = await s.app.inject({ method: 'GET', url: '/' });
    expect(shell.headers['content-security-policy']).toContain("frame-ancestors 'self'");
  });

  it('adds HSTS in production, to API answers and documents alike', async () => {
    expect(prod, 'a production server starts with its defaults replaced').toBeDefined();
    for (const url of ['/healthz', '/api/v2/config', '/markets']) {
      const res = await prod.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('keeps an uploaded image from ever running as a page, read back through the API', async () => {
    const { token } = await s.signUp();
    const up = await upload(s, token);
    expect(up.status).toBe(200);
    const { url } = up.body.data as { url: string };
    const read = await s.app.inject({ method: 'GET', url, headers: { token } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(read.headers['x-content-type-options']).toBe('nosniff');
  });
});
