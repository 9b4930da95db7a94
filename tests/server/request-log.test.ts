import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionTag } from '../../server/lib/request-ids';
import { startTestServer, type TestServer } from '../support/server';

/**
 * A request's logger (req.log) is made only when something logs through it (server/app.ts,
 * LazyRequestLogger): what it writes must still carry the request id, at the level asked for.
 */
describe('request logger', () => {
  let s: TestServer;
  const logged: Array<Record<string, unknown>> = [];
  beforeEach(() => {
    logged.length = 0;
  });
  beforeAll(async () => {
    s = await startTestServer(
      'sqlite',
      { LOG_REQUESTS: '1' },
      {
        logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
        setup(app) {
          app.get('/test/log', async (req) => {
            req.log.warn({ what: 'a warning' }, 'from a handler');
            req.log.debug('below the level');
            const child = req.log.child({ part: 'inner' });
            child.info('from a child');
            return { level: req.log.level };
          });
        },
      },
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  it('writes what a handler logs with the request id, and not what is below the level', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/test/log' });
    expect(res.json()).toEqual({ level: 'info' });
    const reqIds = new Set(logged.map((l) => l.reqId));
    // Fastify's own request lines (LOG_REQUESTS=1) and the handler's share one request id.
    expect(reqIds.size).toBe(1);
    expect([...reqIds][0]).toEqual(expect.any(String));
    const messages = logged.map((l) => l.msg);
    expect(messages).toEqual(['incoming request', 'from a handler', 'from a child', 'request completed']);
    expect(logged[1]).toMatchObject({ level: 40, what: 'a warning' });
    expect(logged[2]).toMatchObject({ level: 30, part: 'inner' });
  });

  it('gives each request its own id', async () => {
    await s.app.inject({ method: 'GET', url: '/test/log' });
    await s.app.inject({ method: 'GET', url: '/test/log' });
    expect(new Set(logged.map((l) => l.reqId)).size).toBe(2);
  });

  it("tags an incoming request with its session's tag, never its token", async () => {
    const token = 'a-session-token-of-some-length';
    await s.app.inject({ method: 'GET', url: '/test/log', headers: { token } });
    await s.app.inject({ method: 'GET', url: '/test/log' });
    const incoming = logged.filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => (l.req as { session?: string }).session)).toEqual([
      sessionTag(token),
      undefined,
    ]);
    expect(incoming[0]!.req).toMatchObject({ method: 'GET', url: '/test/log' });
    expect(JSON.stringify(logged)).not.toContain(token);
  });
});
