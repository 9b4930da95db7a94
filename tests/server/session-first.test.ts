import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Endpoint, type EndpointName } from '#shared/contract/index';
import { uploadReadPath } from '../../server/lib/uploads';
import { accepts, validRequest } from '../support/schemas';
import { DIALECTS, type Reply, startTestServer, type TestServer } from '../support/server';
import { enrolTotp } from '../support/two-factor';

/**
 * The customer API checks the session before it reads the input — 401 before
 * 400 — on every private endpoint, so a caller without a session learns nothing of a call's schema
 * and gets the same refusal whatever it sends. The endpoints are the contract's entries that need
 * a session (the table lib/route.ts registers every route from), not a list written here.
 */

const PRIVATE = (Object.entries(contract) as Array<[EndpointName, Endpoint]>).filter(([, ep]) => ep.auth);

/** Input the endpoint's schema refuses: a body that is no object; a query whose fields hold NUL. */
function refusedInput(ep: Endpoint): { body?: unknown; query?: Record<string, string> } {
  if (ep.method === 'POST') return { body: [1, 2, 3] };
  const fields = Object.keys((ep.req as { properties?: object }).properties ?? {});
  return { query: Object.fromEntries(fields.map((f) => [f, '\u0000'])) };
}

describe.each(DIALECTS)('the session before the input on $name', ({ name, enabled }) => {
  let s: TestServer;
  let stepToken = '';
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    // A password-only step session: an account with an authenticator app, signed in again.
    const u = await s.signUp();
    await enrolTotp(s, u.token);
    stepToken = (await s.call('login', { body: { user: u.phone, password: 'secret123' } })).body.data.token;
  });
  afterAll(async () => {
    await s?.close();
  });

  const send = (name: EndpointName, ep: Endpoint, input: ReturnType<typeof refusedInput>, token?: string) =>
    s.call(name, ep.method === 'GET' ? { token, query: input.query } : { token, body: input.body });
  const expectLogout = (what: string, res: Reply) => {
    expect(res.status, `${what}: ${res.text}`).toBe(401);
    expect(res.body.msg, what).toBe('logout');
  };

  it.runIf(enabled)(
    'finding 10: every private endpoint answers 401 before 400 without a session',
    async () => {
      expect(PRIVATE.length).toBeGreaterThan(60);
      // Every answer that is not `logout`, collected first so the failure names them all.
      const wrong: string[] = [];
      for (const [name, ep] of PRIVATE) {
        const bad = refusedInput(ep);
        // The input really is one the schema refuses (else the walk would prove nothing).
        if (ep.method === 'POST' || Object.keys(bad.query ?? {}).length > 0)
          expect(accepts(ep, ep.method === 'GET' ? bad.query : bad.body), name).toBe(false);
        const valid = validRequest(ep);
        const tries: Array<[string, Reply]> = [
          ['no token, bad input', await send(name, ep, bad)],
          ['a token no session ever had, bad input', await send(name, ep, bad, 'x'.repeat(43))],
          [
            'no token, valid input',
            await send(name, ep, { body: valid, query: valid as Record<string, string> }),
          ],
        ];
        for (const [what, res] of tries)
          if (res.status !== 401 || res.body.msg !== 'logout') wrong.push(`${name} (${what}): ${res.status}`);
      }
      expect(wrong, `${wrong.length} of ${PRIVATE.length * 3} answers were not 401`).toEqual([]);
    },
  );
  it.runIf(enabled)('finding 10: a body that is not JSON at all, without a session, is a 401', async () => {
    for (const [name, ep] of PRIVATE.filter(([, e]) => e.method === 'POST' && !e.upload)) {
      const res = await s.app.inject({
        method: 'POST',
        url: `${s.config.apiBase}${ep.path}`,
        headers: { 'content-type': 'application/json' },
        payload: '{"half":',
      });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(401);
    }
  });

  it.runIf(enabled)(
    'finding 10: a password-only step session is refused for what it may not open before its input is read',
    async () => {
      for (const [name, ep] of PRIVATE.filter(([, e]) => !(e.steps ?? []).includes('verify'))) {
        const res = await send(name, ep, refusedInput(ep), stepToken);
        expectLogout(`${name} with a step session and bad input`, res);
        expect(res.body.data, name).toBe('errors.secondFactorRequired');
      }
    },
  );

  it.runIf(enabled)('finding 10: an identity photo read without a session is a 401', async () => {
    expectLogout('upload read', await s.api('GET', uploadReadPath('0'.repeat(32))));
  });
});
