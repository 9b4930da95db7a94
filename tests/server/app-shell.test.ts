import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFilePath } from '../../server/app';
import { loadConfig } from '../../server/config';
import { startTestServer, type TestServer } from '../support/server';

/*
 * The app's files and routes as a deploy leaves them: a file that is not there is a 404
 * (a tab of the previous release asking for its old script must fail cleanly, not get the app's
 * page as a script), HEAD answers like GET, and a hybrid shell's origin named in CORS_ORIGINS may
 * call the API while any other origin may not. Nothing here depends on the database: SQLite only.
 */
describe('app files, routes and origins', () => {
  let dist: string;
  let s: TestServer;
  let open: TestServer;
  const SHELL = 'http://127.0.0.1:4999';
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-dist-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Bourse</title>');
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    s = await startTestServer('sqlite', { DIST_DIR: dist, CORS_ORIGINS: `${SHELL}, capacitor://localhost` });
    open = await startTestServer('sqlite', { DIST_DIR: dist });
  });
  afterAll(async () => {
    await s?.close();
    await open?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers 404 for a file that is not there, and the app page for app routes, dots and all', async () => {
    for (const url of [
      '/assets/app-0000.js',
      '/assets/Home-abcd.css',
      '/icons/gone.png',
      '/old.webmanifest',
    ]) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).not.toContain('text/html');
    }
    for (const url of [
      '/markets',
      '/stock/RELIANCE.NS/IN/Reliance%20Industries',
      '/stock/trading/AAPL/US/Apple%20Inc.',
    ]) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
    }
    expect((await s.app.inject({ method: 'GET', url: '/assets/app-1234.js' })).statusCode).toBe(200);
    // The API's own 404 stays in its envelope.
    expect((await s.api('GET', '/nothing')).body).toEqual({ msg: 'no', data: expect.any(String) });
    expect(isFilePath('/news/12')).toBe(false);
  });

  it('answers HEAD on app routes and files like GET, without a body', async () => {
    for (const url of ['/markets', '/', '/assets/app-1234.js', '/assets/app-0000.js']) {
      const get = await s.app.inject({ method: 'GET', url });
      const head = await s.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(get.statusCode);
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
      expect(head.body, url).toBe('');
    }
  });

  it('lets a listed origin call the API with its headers, and refuses any other', async () => {
    const preflight = (origin: string) =>
      s.app.inject({
        method: 'OPTIONS',
        url: '/api/stock/success/v2/user/info',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,token,idempotency-key,authorization',
        },
      });
    const allowed = await preflight(SHELL);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(SHELL);
    const headers = String(allowed.headers['access-control-allow-headers']).toLowerCase().split(/, ?/);
    expect(headers).toEqual(
      expect.arrayContaining(['token', 'idempotency-key', 'authorization', 'content-type']),
    );
    expect(allowed.headers['access-control-max-age']).toBe('600');
    expect((await preflight('capacitor://localhost')).headers['access-control-allow-origin']).toBe(
      'capacitor://localhost',
    );

    const refused = await preflight('http://evil.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    const read = (origin: string) =>
      s.app.inject({ method: 'GET', url: '/api/v2/config', headers: { origin } });
    expect((await read(SHELL)).headers['access-control-allow-origin']).toBe(SHELL);
    expect((await read('http://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    // Without CORS_ORIGINS no origin but the app's own may read an answer.
    const closed = await open.app.inject({
      method: 'GET',
      url: '/api/v2/config',
      headers: { origin: SHELL },
    });
    expect(closed.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("gives a market snapshot's answers the listed origin's CORS headers, computed or remembered", async () => {
    // A snapshot answers past Fastify's send when nothing else adds headers (lib/snapshot.ts); the
    // CORS plugin adds its own through the reply, so with CORS_ORIGINS they must still be sent.
    const url = '/api/v2/stock/list?market=US';
    for (const kind of ['computed', 'by URL', 'by input']) {
      const res = await s.app.inject({
        method: 'GET',
        url: kind === 'by input' ? `${url}&page=1` : url,
        headers: { origin: SHELL },
      });
      expect(res.statusCode, kind).toBe(200);
      expect(res.headers['access-control-allow-origin'], kind).toBe(SHELL);
      expect(res.headers['access-control-expose-headers'], kind).toContain('x-server-time');
      expect(res.headers.etag, kind).toBeDefined();
    }
  });

  it('refuses to start with * or anything that is not an origin in CORS_ORIGINS', () => {
    for (const bad of ['*', 'https://a.example, *', 'null', 'https://a.example/path', 'a.example'])
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
    expect(loadConfig({}).corsOrigins).toEqual([]);
  });
});
