import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  OPS_API,
  OPS_MESSAGES,
  OPS_PREFIX,
  type OpsEndpoint,
  type OpsName,
  ROLES,
  type Role,
} from '#shared/backoffice';
import { addStaff } from '../../server/backoffice/staff';
import { consoleActor } from '../../server/lib/audit-log';
import {
  answerProblem,
  type Case,
  edgeCases,
  malformedCases,
  refusalProblem,
  tableDigest,
} from '../support/fuzz';
import { objectBranches, type Schema } from '../support/schemas';
import { DIALECTS, startTestServer, stillClock, type TestServer } from '../support/server';
import { enrolledMember, type Member, opsCall, STAFF_PASSWORD, stepUp } from '../support/staff';

/**
 * The back office's API under the customer API's malformed-input table (tests/support/fuzz.ts),
 * driven by OPS_API's own request schemas: each call is sent every malformed input by a session
 * that may make it (a member whose role has its capability, with a fresh second factor; an
 * enrolling session for the enrolment steps; none for sign-in), so the refusal is the input's.
 * Each refused one must answer 4xx with an error key the back office's app says
 * (`OPS_MESSAGES`) — never a 500 — and the database must not change. Then the other side: who
 * may not make a call is refused before its input is read (the gateway's order), whatever the
 * input — backoffice.test.ts checks the same refusals with an empty input.
 */

const ENTRIES = Object.entries(OPS_API) as Array<[OpsName, OpsEndpoint]>;
const CASES = ENTRIES.flatMap(([name, ep]) => malformedCases(name, ep));
const EDGES = ENTRIES.flatMap(([name, ep]) => edgeCases(name, ep));
/** A key the back office's app says in words (src/backoffice/api.ts `message`). */
const said = (key: string) => key in OPS_MESSAGES;
/** The gateway's refusals of the caller (not of the input). */
const ACCESS_REFUSALS = [
  'errors.sessionExpired',
  'ops.errors.forbidden',
  'ops.errors.factorNeeded',
  'ops.errors.stepUp',
];

const stagesOf = (ep: OpsEndpoint) => ep.stages ?? ['full'];

describe.each(DIALECTS)('the back office under malformed input on $name', ({ name, enabled }) => {
  let s: TestServer;
  const team = {} as Record<Role, Member>;
  /** A session that has set its password but no second factor yet (stage `enrol`). */
  let enrolling: string;
  beforeAll(async () => {
    if (!enabled) return;
    // A clock that stands still: no session's last use is written again, no step-up goes stale.
    s = await startTestServer(name, { LOGIN_LIMIT_ADDRESS: '1000' }, { clock: stillClock() });
    for (const role of ROLES) team[role] = await enrolledMember(s, role);
    const { link } = await addStaff(s.deps, consoleActor('test'), { login: 'enrolling1', role: 'support' });
    const r = await opsCall(s, 'enrol', null, { token: link!.split('#')[1]!, password: STAFF_PASSWORD });
    enrolling = r.body.data.token;
    await stepUp(s, team.admin);
    // Each session used at this instant, so none is written again while the clock stands.
    for (const token of [enrolling, ...ROLES.map((r) => team[r].token)]) await opsCall(s, 'me', token);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The session that may make `ep` (null: a sign-in call, made without one). */
  function allowed(ep: OpsEndpoint): string | null {
    if (ep.cap === 'public') return null;
    return stagesOf(ep).includes('full') ? team.admin.token : enrolling;
  }

  function send(c: Case, token: string | null) {
    return s.app.inject({
      method: c.method,
      url: `${s.config.apiBase}${OPS_PREFIX}${c.path}`,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(c.method === 'POST' ? { 'content-type': c.contentType ?? 'application/json' } : {}),
      },
      ...(c.method === 'GET'
        ? { query: c.input as Record<string, string> }
        : { payload: c.raw ?? JSON.stringify(c.input) }),
    });
  }

  const byPath = new Map(ENTRIES.map(([n, ep]) => [`${ep.method} ${ep.path}`, [n, ep] as const]));
  const entryOf = (c: Case) => byPath.get(`${c.method} ${c.path}`)!;

  it.runIf(enabled)('every call of OPS_API is served', () => {
    for (const [, ep] of ENTRIES)
      expect(
        s.app.hasRoute({ method: ep.method, url: `${s.config.apiBase}${OPS_PREFIX}${ep.path}` }),
        ep.path,
      ).toBe(true);
  });

  it.runIf(enabled)(
    `refuses ${CASES.length} malformed requests from a caller who may make them, and writes nothing`,
    async () => {
      // Every call that takes any input, and every POST, has cases (the table is not silently empty).
      const covered = new Set(CASES.map((c) => c.path));
      for (const [, ep] of ENTRIES) {
        const takesInput = objectBranches(ep.req as Schema).some(
          (b) => Object.keys(b.properties ?? {}).length > 0,
        );
        if (takesInput || ep.method === 'POST') expect(covered.has(ep.path), ep.path).toBe(true);
      }
      const before = await tableDigest(s.deps.database.db);
      const failures: string[] = [];
      for (const c of CASES) {
        const res = await send(c, allowed(entryOf(c)[1]));
        const problem = refusalProblem(res, said);
        if (problem) failures.push(`${c.label} → ${problem}: ${res.body.slice(0, 120)}`);
        // The caller may make the call: the refusal is the input's, not the gateway's.
        else if (ACCESS_REFUSALS.includes(JSON.parse(res.body).data))
          failures.push(`${c.label} → refused the caller: ${res.body.slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
      expect(await tableDigest(s.deps.database.db)).toEqual(before);
    },
  );

  it.runIf(enabled)(
    `serves or refuses ${EDGES.length} extreme but valid requests, never with a 5xx`,
    async () => {
      const failures: string[] = [];
      for (const c of EDGES) {
        // Sign-in with valid extremes would count failed passwords: the limit is not this test's.
        const [, ep] = entryOf(c);
        if (ep.cap === 'public') continue;
        const res = await send(c, allowed(ep));
        const problem = answerProblem(res, said);
        if (problem) failures.push(`${c.label} → ${problem}: ${res.body.slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
    },
  );

  it.runIf(enabled)(
    'who may not make a call is refused before its input is read, whatever the input',
    async () => {
      const before = await tableDigest(s.deps.database.db);
      const failures: string[] = [];
      const expectRefusal = async (c: Case, token: string | null, who: string, want: [number, string]) => {
        const res = await send(c, token);
        const body = JSON.parse(res.body);
        if (res.statusCode !== want[0] || body.data !== want[1])
          failures.push(`${c.label} ${who} → ${res.statusCode} ${body.data}, expected ${want.join(' ')}`);
      };
      for (const [n, ep] of ENTRIES) {
        if (ep.cap === 'public') continue;
        // One malformed input of each call (or its valid sample for a call that takes none).
        const c = CASES.find((x) => x.label.startsWith(`${n}: `)) ?? {
          label: `${n}: no input`,
          method: ep.method,
          path: ep.path,
          input: {},
        };
        await expectRefusal(c, null, 'without a session', [401, 'errors.sessionExpired']);
        // A session a step short: an enrolling one on a full session's call, and the other way.
        if (stagesOf(ep).includes('full')) {
          if (!stagesOf(ep).includes('enrol'))
            await expectRefusal(c, enrolling, 'before any factor', [403, 'ops.errors.factorNeeded']);
        } else
          await expectRefusal(c, team.admin.token, 'in a full session', [403, 'ops.errors.factorNeeded']);
        if (ep.cap === 'session') continue;
        const holders = CAPABILITIES[ep.cap] as readonly Role[];
        for (const role of ROLES.filter((r) => !holders.includes(r)))
          await expectRefusal(c, team[role].token, `as ${role}`, [403, 'ops.errors.forbidden']);
      }
      expect(failures).toEqual([]);
      // Members' refusals are audited (`denied:<call>`); nothing else is written.
      const after = await tableDigest(s.deps.database.db);
      const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
      expect(changed.filter((t) => t !== 'audit_log')).toEqual([]);
    },
  );
});
