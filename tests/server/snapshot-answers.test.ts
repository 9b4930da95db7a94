import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketAnswers } from '../../server/market/answers';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

/**
 * A market snapshot's answer is the same whichever way the server found it: computed by the
 * handler (the first question of a tick), taken from the entry of its validated input (another
 * spelling of the question), or taken at once by the URL as sent (the same URL again) — the same
 * bytes, the same ETag (a hash of those bytes), cache-control, content-type and length; a HEAD
 * has the GET's headers and no body; a 304 carries the ETag and cache-control and nothing else.
 * The body is the handler's answer serialised once (`{"msg":"ok","data":…}`). The answers come
 * from the market alone, but the server runs on each dialect.
 */
describe.each(DIALECTS)('market snapshot answers on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (!enabled) return;
    // A clock that stands still (a Wednesday morning in Mumbai): every question in one tick.
    let at = Date.UTC(2026, 10, 25, 5, 0, 0);
    const clock = {
      now: () => at,
      advance(ms: number) {
        at += ms;
      },
      offset: () => at - Date.now(),
    };
    s = await startTestServer(name, {}, { clock });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Headers that differ on every answer by design (its id, the server's clock, the date). */
  const PER_ANSWER = new Set(['x-request-id', 'x-server-time', 'date']);
  const constant = (headers: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(headers).filter(([n]) => !PER_ANSWER.has(n)));

  it.runIf(enabled)('computed, by input and by URL: the same bytes and headers', async () => {
    const get = (url: string, headers: Record<string, string> = {}) =>
      s.app.inject({ method: 'GET', url: `${s.config.apiBase}${url}`, headers });
    const computed = await get('/v2/stock/list?market=IN');
    const byUrl = await get('/v2/stock/list?market=IN');
    const byInput = await get('/v2/stock/list?limit=10&market=IN&page=1');
    const head = await s.app.inject({ method: 'HEAD', url: `${s.config.apiBase}/v2/stock/list?market=IN` });

    expect(computed.statusCode).toBe(200);
    const body = computed.rawPayload;
    const data = marketAnswers(s.deps).stockList({ market: 'IN', page: 1, limit: 10 });
    expect(body.toString('utf8')).toBe(JSON.stringify({ msg: 'ok', data }));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const expected = {
      'x-content-type-options': 'nosniff',
      etag,
      'cache-control': 'no-cache',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      connection: 'keep-alive',
    };
    expect(constant(computed.headers)).toEqual(expected);
    for (const [kind, res] of Object.entries({ byUrl, byInput, head })) {
      expect(res.statusCode, kind).toBe(200);
      expect(constant(res.headers), kind).toEqual(expected);
      expect(res.headers['x-request-id'], kind).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
      expect(res.headers['x-server-time'], kind).toBe(String(s.deps.clock.now()));
    }
    expect(byUrl.rawPayload.equals(body)).toBe(true);
    expect(byInput.rawPayload.equals(body)).toBe(true);
    expect(head.rawPayload.length).toBe(0);

    // If-None-Match on each path: 304, ETag and cache-control, no body, no content headers.
    const notModified = {
      'x-content-type-options': 'nosniff',
      etag,
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    };
    for (const [url, match] of [
      ['/v2/stock/list?market=IN', etag],
      ['/v2/stock/list?market=IN&page=1', `W/${etag}`],
      ['/v2/stock/list?market=IN', `"other", ${etag}`],
    ] as const) {
      const res = await get(url, { 'if-none-match': match });
      expect(res.statusCode, `${url} ${match}`).toBe(304);
      expect(constant(res.headers), `${url} ${match}`).toEqual(notModified);
      expect(res.rawPayload.length).toBe(0);
    }
    const stale = await get('/v2/stock/list?market=IN', { 'if-none-match': '"other"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(body)).toBe(true);
  });
});
