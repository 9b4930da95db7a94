import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Endpoint, type EndpointName } from '#shared/contract/index';
import { uploadReadPath } from '../../server/lib/uploads';
import { validRequest } from '../support/schemas';
import { DIALECTS, type Reply, startTestServer, type TestServer } from '../support/server';
import { upload } from '../support/wallet';

/**
 * Private answers are never cached (ASVS 14.3.2), over the whole contract: every
 * endpoint that needs a session — answered, refused for bad input or refused without a session —
 * and the sign-in calls that hand a token out say `Cache-Control: no-store` and vary on the
 * credentials' headers; the public market and content reads keep their own (shared) policy.
 * Every answer names its request id, unique per request, and a refusal's log line names the
 * same id. Headers do not depend on the database: SQLite alone.
 */

const ENTRIES = Object.entries(contract) as Array<[EndpointName, Endpoint]>;
const isPrivate = (ep: Endpoint) => ep.auth || ep.method === 'POST';

describe('private answers and request ids', () => {
  let s: TestServer;
  const logged: Array<Record<string, unknown>> = [];
  let phone = '';
  const password = 'secret123';

  beforeAll(async () => {
    s = await startTestServer(
      'sqlite',
      {},
      { logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } },
    );
    ({ phone } = await s.signUp(undefined, password));
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A session of its own for each call: one endpoint (logout, a password change) may end it. */
  const session = async () => {
    const login = await s.call('login', { body: { user: phone, password } });
    expect(login.body.msg).toBe('ok');
    return login.body.data.token as string;
  };

  const expectPrivate = (what: string, res: Reply) => {
    expect(res.headers['cache-control'], what).toBe('no-store');
    expect(String(res.headers.vary), what).toMatch(/(^|, *)token(,|$)/);
    expect(res.headers['x-request-id'], what).toEqual(expect.any(String));
  };

  it('marks every answer of a session, and every sign-in answer, no-store', async () => {
    const checked: string[] = [];
    for (const [name, ep] of ENTRIES) {
      const input = validRequest(ep);
      const token = ep.auth ? await session() : undefined;
      const answered = await s.call(
        name,
        ep.method === 'GET' ? { token, query: input as Record<string, string> } : { token, body: input },
      );
      if (!isPrivate(ep)) {
        // Public reads are the same for everyone: their own policy, never no-store.
        expect(answered.headers['cache-control'], name).not.toBe('no-store');
        expect(answered.headers['x-request-id'], name).toEqual(expect.any(String));
        continue;
      }
      expect(answered.status, `${name}: ${answered.text}`).toBeLessThan(500);
      expectPrivate(`${name} (${answered.status})`, answered);
      // Refused: no session, and input the schema refuses.
      if (ep.auth) expectPrivate(`${name} without a session`, await s.call(name));
      // A GET's unknown parameters are ignored (not refused): a known one holding NUL is bad.
      const params = Object.keys((ep.req as { properties?: object }).properties ?? {});
      if (ep.method === 'POST' || params.length > 0) {
        const bad = await s.call(
          name,
          ep.method === 'GET' ? { token, query: { [params[0]!]: '\u0000' } } : { token, body: [1, 2, 3] },
        );
        expect(bad.status, name).toBeGreaterThanOrEqual(400);
        expectPrivate(`${name} with bad input (${bad.status})`, bad);
      }
      checked.push(name);
    }
    expect(checked.length).toBe(ENTRIES.filter(([, ep]) => isPrivate(ep)).length);
    expect(checked.length).toBeGreaterThan(40);
  });

  it('marks an identity photo read back no-store as well', async () => {
    const token = await session();
    const sent = await upload(s, token);
    expect(sent.body.msg).toBe('ok');
    const { id } = sent.body.data as { id: string };
    const res = await s.api('GET', uploadReadPath(id), { token });
    expect(res.status).toBe(200);
    expectPrivate('upload read', res);
  });

  it('gives every answer its own request id, and logs a refusal with it', async () => {
    logged.length = 0;
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await s.call('balance');
      expect(res.status).toBe(401);
      ids.add(String(res.headers['x-request-id']));
    }
    expect(ids.size).toBe(20);
    const refused = logged.filter((l) => l.msg === 'refused');
    expect(refused.map((l) => l.reqId).sort()).toEqual([...ids].sort());
    expect(refused[0]).toMatchObject({ status: 401, key: 'errors.sessionExpired', level: 30 });
  });

  it("stamps every answer with the server's clock, not the machine's", async () => {
    const before = s.clock.now();
    const answers = [await s.call('login', { body: { user: phone, password } }), await s.call('login')];
    const after = s.clock.now();
    for (const res of answers) {
      const stamped = Number(res.headers['x-server-time']);
      expect(stamped).toBeGreaterThanOrEqual(before);
      expect(stamped).toBeLessThanOrEqual(after);
    }
    // The test server's clock starts days from the machine's (TEST_EPOCH): the app must not mix them.
    expect(Math.abs(before - Date.now())).toBeGreaterThan(60_000);
  });

  it('keeps a request id only from a proxy it trusts', async () => {
    const sent = { 'x-request-id': 'edge-42.abc' };
    expect((await s.call('config', { headers: sent })).headers['x-request-id']).not.toBe('edge-42.abc');
    const behind = await startTestServer('sqlite', { TRUST_PROXY: '1' });
    try {
      expect((await behind.call('config', { headers: sent })).headers['x-request-id']).toBe('edge-42.abc');
      // An id that could trip a log reader is replaced.
      const odd = await behind.call('config', { headers: { 'x-request-id': 'a b\u00e9' } });
      expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    } finally {
      await behind.close();
    }
  });
});

/**
 * A hybrid shell's CORS answers keep the credentials' Vary beside the CORS
 * plugin's `Origin`, and behind an address-listed proxy only that proxy's request id is believed.
 */
describe.each(DIALECTS)('private answers behind CORS and a proxy on $name', ({ name, enabled }) => {
  let s: TestServer;
  const SHELL = 'https://shell.example';
  beforeAll(async () => {
    if (enabled)
      s = await startTestServer(name, { CORS_ORIGINS: SHELL, TRUST_PROXY: '10.0.0.1, 10.2.0.0/16' });
  });
  afterAll(async () => {
    await s?.close();
  });

  const varyOf = (res: { headers: Record<string, unknown> }) =>
    String(res.headers.vary ?? '')
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);

  it.runIf(enabled)(
    'finding 10: with CORS_ORIGINS a private answer varies on Origin, token and authorization',
    async () => {
      const { token } = await s.signUp();
      const origin = { origin: SHELL };
      for (const [what, res] of [
        ['an answer', await s.call('balance', { token, headers: origin })],
        ['a refusal without a session', await s.call('balance', { headers: origin })],
        ['a refusal of bad input', await s.call('withdraw', { token, headers: origin, body: [1] })],
        ['a sign-in', await s.call('login', { headers: origin, body: { user: '1', password: 'x' } })],
        ['a call from no origin', await s.call('balance', { token })],
      ] as const) {
        expect(res.headers['cache-control'], what).toBe('no-store');
        expect(varyOf(res), what).toEqual(expect.arrayContaining(['origin', 'token', 'authorization']));
        // Each named once: a cache keyed on a repeated list is no worse, but the header is ours.
        expect(new Set(varyOf(res)).size, what).toBe(varyOf(res).length);
      }
      const answered = await s.call('balance', { token, headers: origin });
      expect(answered.headers['access-control-allow-origin']).toBe(SHELL);
    },
  );

  it.runIf(enabled)('finding 10: a request id is believed only from a TRUST_PROXY peer', async () => {
    const from = (remoteAddress: string) =>
      s.app.inject({
        method: 'GET',
        url: `${s.config.apiBase}${contract.config.path}`,
        remoteAddress,
        headers: { 'x-request-id': 'edge-42.abc' },
      });
    expect((await from('10.0.0.1')).headers['x-request-id']).toBe('edge-42.abc');
    expect((await from('10.2.7.9')).headers['x-request-id']).toBe('edge-42.abc');
    expect((await from('::ffff:10.0.0.1')).headers['x-request-id']).toBe('edge-42.abc');
    for (const peer of ['203.0.113.7', '10.0.0.2', '127.0.0.1', '2001:db8::1'])
      expect((await from(peer)).headers['x-request-id'], peer).not.toBe('edge-42.abc');
  });
});
