import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_CONTENT_SECURITY_POLICY,
  CONTENT_SECURITY_POLICY,
  EMBEDDABLE_CSP,
  securityHeaders,
} from '../../server/lib/security-headers';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Every kind of answer carries every security header (they are computed once at start, not per
 * request): API answers and refusals, snapshot answers and their 304s, the app shell, assets and
 * errors; an API answer's policy lets nothing load or frame it, the app's documents get the app's
 * policy, and the quote widget alone may be framed by other sites. Headers do not depend on the
 * database, so SQLite alone is enough here.
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

  it('sends the same list on every kind of answer, with the strictest policy on the API', async () => {
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
    expect(API_CONTENT_SECURITY_POLICY).toBe("default-src 'none';frame-ancestors 'none'");
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

  it('adds HSTS in production', async () => {
    expect(prod, 'a production server starts with its defaults replaced').toBeDefined();
    const res = await prod.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
