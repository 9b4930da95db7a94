import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Endpoint } from '#shared/contract/index';
import { answerProblem, refusalProblem, tableDigest } from '../support/fuzz';
import { accepts, objectBranches, type Schema, sample, validRequest } from '../support/schemas';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { credit, idem } from '../support/trading';
import { multipartBody } from '../support/wallet';

/**
 * Malformed input, table-driven over the contract: for every endpoint, each field missing, of
 * every wrong JSON type, out of range, a huge string, plus unknown fields and bodies that are not
 * objects or not JSON. The contract's own schema (validated as the server does) says which of
 * these must be refused; each refused one must answer 4xx `msg: 'no'` with an error key of all four
 * locales — never a 500 — and the database must not change at all. The transport itself (methods,
 * content types, broken bodies, headers, the HTTP parser) is fuzzed in fuzz-transport.test.ts.
 */

const HUGE = 'x'.repeat(200_000);
const WRONG_VALUES: unknown[] = [
  null,
  true,
  12345,
  -1,
  0,
  1.5,
  1e15,
  '12x',
  '',
  ' ',
  '\u0000',
  'AAPL\u0000',
  HUGE,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  {},
  { $gt: 0 },
  [],
  ['AAPL'],
];
const WRONG_QUERY = [
  '',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e400',
  '2147483648',
  '9'.repeat(40),
  'x'.repeat(20_000),
  "' or 1=1 --",
  'AAPL\u0000',
];
/** Fields an attacker would like to set (mass assignment). */
const EXTRA = { user_id: 1, balance: 1e9, status: 2, is_admin: true, __proto__x: 1 };

/**
 * Extremes a schema may well accept: the largest integers (beyond a 32-bit column), the longest
 * strings, text that is hostile to SQL, HTML or terminals. Accepted or refused, never a 500.
 */
const EDGE_VALUES: unknown[] = [
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53 - 1,
  1e9,
  0.0001,
  "' or '1'='1' --",
  '<script>alert(1)</script>',
  '\u202eRTL',
  '😀'.repeat(16),
  '%00',
  '\u00a0',
  ' padded ',
];

interface Case {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  /** JSON value for POST (or raw text when `raw`), query strings for GET. */
  input: unknown;
  raw?: string;
  contentType?: string;
}

function casesFor(name: string, ep: Endpoint): Case[] {
  const out: Case[] = [];
  const add = (label: string, input: unknown) => {
    if (!accepts(ep, input))
      out.push({ label: `${name}: ${label}`, method: ep.method, path: ep.path, input });
  };
  for (const branch of objectBranches(ep.req as Schema)) {
    const base = (sample(branch) ?? {}) as Record<string, unknown>;
    const props = Object.keys(branch.properties ?? {});
    if (ep.method === 'GET') {
      const q = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)]));
      for (const p of props) for (const v of WRONG_QUERY) add(`${p}=${v.slice(0, 12)}`, { ...q, [p]: v });
      continue;
    }
    for (const p of props) {
      if ((branch.required ?? []).includes(p)) {
        const { [p]: _, ...rest } = base;
        add(`without ${p}`, rest);
      }
      for (const v of WRONG_VALUES) add(`${p}=${JSON.stringify(v).slice(0, 12)}`, { ...base, [p]: v });
    }
    for (const [k, v] of Object.entries(EXTRA)) add(`extra ${k}`, { ...base, [k]: v });
  }
  if (ep.method === 'POST' && !ep.upload) {
    for (const body of [[], 'text', 42, null, [validRequest(ep)]]) add(`body ${JSON.stringify(body)}`, body);
    out.push(
      { label: `${name}: broken JSON`, method: 'POST', path: ep.path, input: null, raw: '{"count": 1,' },
      {
        label: `${name}: form body`,
        method: 'POST',
        path: ep.path,
        input: null,
        raw: 'count=1',
        contentType: 'application/x-www-form-urlencoded',
      },
      {
        label: `${name}: 2 MB body`,
        method: 'POST',
        path: ep.path,
        input: null,
        raw: JSON.stringify({ pad: 'y'.repeat(2_000_000) }),
      },
    );
  }
  return out;
}

const CASES = Object.entries(contract).flatMap(([name, ep]) => casesFor(name, ep as Endpoint));

/** Valid requests with extreme values (EDGE_VALUES and each string field at its maximum length). */
function edgesFor(name: string, ep: Endpoint): Case[] {
  const out: Case[] = [];
  if (ep.upload) return out;
  for (const branch of objectBranches(ep.req as Schema)) {
    const base = (sample(branch) ?? {}) as Record<string, unknown>;
    for (const [p, prop] of Object.entries((branch.properties ?? {}) as Record<string, Schema>)) {
      const longest = typeof prop.maxLength === 'number' ? ['x'.repeat(prop.maxLength)] : [];
      for (const v of [...EDGE_VALUES, ...longest]) {
        const input =
          ep.method === 'GET'
            ? Object.fromEntries(Object.entries({ ...base, [p]: v }).map(([k, x]) => [k, String(x)]))
            : { ...base, [p]: v };
        if (accepts(ep, input))
          out.push({
            label: `${name}: ${p}=${JSON.stringify(v).slice(0, 12)}`,
            method: ep.method,
            path: ep.path,
            input,
          });
      }
    }
  }
  return out;
}

const EDGES = Object.entries(contract).flatMap(([name, ep]) => edgesFor(name, ep as Endpoint));

describe.each(DIALECTS)('malformed input on $name', ({ name, enabled }) => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(name);
    const u = await s.signUp();
    token = u.token;
    // Money on the account, so a refusal is about the input, not about an empty balance.
    await credit(s, u.id, 100_000_000);
  });
  afterAll(async () => {
    await s?.close();
  });

  const counts = () => tableDigest(s.deps.database.db);

  it.runIf(enabled)('every endpoint of the contract is served', () => {
    for (const ep of Object.values(contract)) {
      expect(s.app.hasRoute({ method: ep.method, url: `${s.config.apiBase}${ep.path}` }), ep.path).toBe(true);
    }
  });

  it.runIf(enabled)(
    `refuses ${CASES.length} malformed requests with 4xx 'no', and writes nothing`,
    async () => {
      // Every endpoint that takes any input has cases (the table is not silently empty).
      const covered = new Set(CASES.map((c) => c.path));
      for (const ep of Object.values(contract) as Endpoint[]) {
        const takesInput = objectBranches(ep.req as Schema).some(
          (b) => Object.keys(b.properties ?? {}).length > 0,
        );
        if (takesInput || (ep.method === 'POST' && !ep.upload))
          expect(covered.has(ep.path), ep.path).toBe(true);
      }
      const before = await counts();
      const failures: string[] = [];
      for (const c of CASES) {
        const res = await s.app.inject({
          method: c.method,
          url: `${s.config.apiBase}${c.path}`,
          headers: {
            token,
            ...idem(),
            ...(c.method === 'POST' ? { 'content-type': c.contentType ?? 'application/json' } : {}),
          },
          ...(c.method === 'GET'
            ? { query: c.input as Record<string, string> }
            : { payload: c.raw ?? JSON.stringify(c.input) }),
        });
        const problem = refusalProblem(res);
        if (problem) failures.push(`${c.label} → ${problem}: ${res.body.slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
      expect(await counts()).toEqual(before);
    },
  );

  it.runIf(enabled)(
    `serves or refuses ${EDGES.length} extreme but valid requests, never with a 5xx`,
    async () => {
      const failures: string[] = [];
      for (const c of EDGES) {
        const res = await s.app.inject({
          method: c.method,
          url: `${s.config.apiBase}${c.path}`,
          headers: {
            token,
            ...idem(),
            ...(c.method === 'POST' ? { 'content-type': 'application/json' } : {}),
          },
          ...(c.method === 'GET'
            ? { query: c.input as Record<string, string> }
            : { payload: JSON.stringify(c.input) }),
        });
        const problem = answerProblem(res);
        if (problem) failures.push(`${c.label} → ${problem}: ${res.body.slice(0, 120)}`);
      }
      expect(failures).toEqual([]);
    },
  );

  it.runIf(enabled)('the upload refuses what is not one image file, and writes nothing', async () => {
    const before = await counts();
    const url = `${s.config.apiBase}/stock/success/upload`;
    const tries = [
      { headers: { 'content-type': 'application/json' }, payload: '{}' },
      multipartBody(Buffer.from('<?php echo 1; ?>'), { filename: 'x.png', type: 'image/png' }),
      multipartBody(Buffer.from('GIF89a....'), { filename: 'x.gif', type: 'image/gif' }),
      multipartBody(Buffer.alloc(3 * 1024 * 1024, 0xff), { filename: 'big.jpg', type: 'image/jpeg' }),
      multipartBody(Buffer.from('hello'), { field: 'other' }),
    ];
    for (const t of tries) {
      const res = await s.app.inject({
        method: 'POST',
        url,
        headers: { ...t.headers, token },
        payload: t.payload,
      });
      expect(refusalProblem(res), res.body).toBeNull();
    }
    expect(await counts()).toEqual(before);
  });
});
