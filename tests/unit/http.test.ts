import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Endpoint, ERR } from '#shared/contract/define';
import { contract } from '#shared/contract/index';
import { createHttp } from '../../workers/http';
import { markCachedAnswers, SW_CACHE_HEADER } from '../../workers/sw-cache';

/** The worker's HTTP client against a real local server answering every kind of outcome. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const seen: Seen[] = [];
let server: http.Server;
let base = '';

const routes: Record<string, (res: http.ServerResponse) => void> = {
  '/ok': (res) => json(res, 200, { msg: 'ok', data: { n: 1 } }),
  '/no-key': (res) => json(res, 400, { msg: 'no', data: 'errors.insufficientFunds' }),
  '/no-200': (res) => json(res, 200, { msg: 'no', data: 'errors.notFound' }),
  '/no-text': (res) => json(res, 200, { msg: 'no', data: 'something went wrong <b>' }),
  '/logout-401': (res) => json(res, 401, { msg: 'logout', data: 'errors.sessionExpired' }),
  '/logout-400': (res) => json(res, 400, { msg: 'logout', data: 'errors.sessionExpired' }),
  '/bare-401': (res) => {
    res.writeHead(401);
    res.end();
  },
  '/boom': (res) => json(res, 500, { msg: 'no', data: 'errors.server' }),
  '/html-502': (res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<h1>Bad gateway</h1>');
  },
  '/not-json': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello');
  },
  '/slow': () => {},
  // What the service worker gives from its cache when the network did not answer (news only).
  '/sw-cached': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', [SW_CACHE_HEADER]: '1' });
    res.end(JSON.stringify({ msg: 'ok', data: { n: 1 } }));
  },
};

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      (routes[req.url!.split('?')[0]!] ?? ((r) => json(r, 404, { msg: 'no', data: ERR.notFound })))(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function client(overrides: { online?: boolean; token?: string | null } = {}) {
  const logouts: number[] = [];
  const request = createHttp({
    baseURL: base,
    getToken: () => (overrides.token === undefined ? 'tok-123' : overrides.token),
    onLogout: () => logouts.push(1),
    isOnline: () => overrides.online ?? true,
    timeoutMs: 300,
  });
  return { request, logouts };
}

const ep = (path: string, extra: Partial<Endpoint> = {}): Endpoint =>
  ({ method: 'GET', path, auth: true, req: {} as never, ...extra }) as Endpoint;

describe('worker HTTP client', () => {
  it('answers data on ok, sends the token only to signed-in calls, GET input as query, POST as JSON', async () => {
    const { request } = client();
    seen.length = 0;
    expect(await request(ep('/ok'), { page: 2, q: 'tcs' })).toEqual({ ok: true, data: { n: 1 } });
    expect(await request(ep('/ok', { method: 'POST', auth: false }), { symbol: 'AAPL' })).toEqual({
      ok: true,
      data: { n: 1 },
    });
    expect(seen[0]!.url).toBe('/ok?page=2&q=tcs');
    expect(seen[0]!.headers.token).toBe('tok-123');
    expect(seen[1]!.headers.token).toBeUndefined();
    expect(JSON.parse(seen[1]!.body)).toEqual({ symbol: 'AAPL' });
    expect(seen[1]!.headers['idempotency-key']).toBeUndefined();
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it('sends the recharge call its Authorization bearer header beside the token (SPEC §7), and no other call', async () => {
    const { request } = client();
    seen.length = 0;
    const at = (e: Endpoint) => ep('/ok', { ...e, path: '/ok' });
    await request(at(contract.recharge), { count: 5000 }, { idempotencyKey: 'k-12345678' });
    await request(at(contract.withdraw), { bank_id: 1, count: 100 }, { idempotencyKey: 'k-87654321' });
    expect(seen[0]!.headers.authorization).toBe('Bearer tok-123');
    expect(seen[0]!.headers.token).toBe('tok-123');
    expect(seen[1]!.headers.authorization).toBeUndefined();
    expect(Object.values(contract).filter((e) => (e as Endpoint).bearer)).toEqual([contract.recharge]);
  });

  it('maps rejections to their i18n key, and anything that is not a key to a generic one', async () => {
    const { request, logouts } = client();
    expect(await request(ep('/no-key'), {})).toEqual({
      ok: false,
      error: 'errors.insufficientFunds',
      status: 400,
    });
    expect(await request(ep('/no-200'), {})).toEqual({ ok: false, error: 'errors.notFound', status: 200 });
    expect(await request(ep('/no-text'), {})).toEqual({ ok: false, error: ERR.server, status: 200 });
    expect(await request(ep('/missing'), {})).toEqual({ ok: false, error: ERR.notFound, status: 404 });
    expect(await request(ep('/boom'), {})).toEqual({ ok: false, error: ERR.server, status: 500 });
    expect(await request(ep('/html-502'), {})).toEqual({ ok: false, error: ERR.server, status: 502 });
    expect(await request(ep('/not-json'), {})).toEqual({ ok: false, error: ERR.server, status: 200 });
    expect(logouts).toEqual([]);
  });

  it("takes the service worker's cached answer for what it is: the network did not answer", async () => {
    expect(await client().request(ep('/sw-cached'), {})).toEqual({
      ok: false,
      error: ERR.timeout,
      status: 0,
    });
    expect(await client({ online: false }).request(ep('/sw-cached'), {})).toEqual({
      ok: false,
      error: ERR.offline,
      status: 0,
    });
    // The plugin the service worker runs marks exactly such answers, keeping status and body.
    const cachedResponse = new Response('{"msg":"ok"}', {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    const marked = (await markCachedAnswers.cachedResponseWillBeUsed({ cachedResponse }))!;
    expect(marked.headers.get(SW_CACHE_HEADER)).toBe('1');
    expect(marked.headers.get('content-type')).toBe('application/json');
    expect(await marked.text()).toBe('{"msg":"ok"}');
    expect(await markCachedAnswers.cachedResponseWillBeUsed({})).toBeUndefined();
  });

  it('ends the session on a logout answer (400 or 401) and on a bare 401', async () => {
    const { request, logouts } = client();
    expect(await request(ep('/logout-401'), {})).toEqual({
      ok: false,
      error: ERR.sessionExpired,
      status: 401,
    });
    expect(await request(ep('/logout-400'), {})).toEqual({
      ok: false,
      error: ERR.sessionExpired,
      status: 400,
    });
    expect(await request(ep('/bare-401'), {})).toEqual({ ok: false, error: ERR.sessionExpired, status: 401 });
    expect(logouts).toHaveLength(3);
  });

  it('ends nothing on a 401 to a request that carried no session token (sent before the token arrived, or a public call)', async () => {
    const noToken = client({ token: null });
    expect(await noToken.request(ep('/bare-401'), {})).toEqual({
      ok: false,
      error: ERR.sessionExpired,
      status: 401,
    });
    expect(noToken.logouts).toEqual([]);
    const open = client();
    expect(await open.request(ep('/bare-401', { auth: false }), {})).toEqual({
      ok: false,
      error: ERR.sessionExpired,
      status: 401,
    });
    expect(open.logouts).toEqual([]);
  });

  it('reports a timeout, a refused connection and being offline as different keys, without retrying', async () => {
    const { request } = client();
    seen.length = 0;
    expect(await request(ep('/slow'), {})).toEqual({ ok: false, error: ERR.timeout, status: 0 });
    expect(seen.filter((s) => s.url === '/slow')).toHaveLength(1);
    // A caller's own signal (the worker cancels stranded polls with one) keeps the timeout.
    const mine = new AbortController();
    expect(await request(ep('/slow'), {}, { signal: mine.signal })).toEqual({
      ok: false,
      error: ERR.timeout,
      status: 0,
    });
    expect(mine.signal.aborted).toBe(false);
    const closed = createHttp({
      baseURL: 'http://127.0.0.1:9',
      getToken: () => null,
      onLogout: () => {},
      isOnline: () => true,
    });
    expect(await closed(ep('/ok'), {})).toEqual({ ok: false, error: ERR.network, status: 0 });
    const offline = createHttp({
      baseURL: 'http://127.0.0.1:9',
      getToken: () => null,
      onLogout: () => {},
      isOnline: () => false,
    });
    expect(await offline(ep('/ok'), {})).toEqual({ ok: false, error: ERR.offline, status: 0 });
  });

  it('money calls carry the Idempotency-Key, are refused offline without a request, and are sent once', async () => {
    seen.length = 0;
    const { request } = client({ online: false });
    const buy = { ...contract.dealBuy, path: '/ok' };
    expect(await request(buy, { tag: 'AAPL' }, { idempotencyKey: 'key-12345678' })).toEqual({
      ok: false,
      error: ERR.offline,
      status: 0,
    });
    expect(seen).toHaveLength(0);
    const live = client();
    expect(
      await live.request({ ...buy, path: '/slow' }, {}, { idempotencyKey: 'key-abcdefgh' }),
    ).toMatchObject({
      ok: false,
      error: ERR.timeout,
    });
    expect(await live.request(buy, {}, { idempotencyKey: 'key-abcdefgh' })).toMatchObject({ ok: true });
    expect(seen.map((s) => [s.url, s.headers['idempotency-key']])).toEqual([
      ['/slow', 'key-abcdefgh'],
      ['/ok', 'key-abcdefgh'],
    ]);
  });
});
