import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Endpoint } from '#shared/contract/index';
import { answerProblem, edgeCases, malformedCases, refusalProblem, tableDigest } from '../support/fuzz';
import { objectBranches, type Schema } from '../support/schemas';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { credit, idem } from '../support/trading';
import { multipartBody } from '../support/wallet';

/**
 * Malformed input, table-driven over the contract: for every endpoint, each field missing, of
 * every wrong JSON type, out of range, a huge string, plus unknown fields and bodies that are not
 * objects or not JSON. The contract's own schema (validated as the server does) says which of
 * these must be refused; each refused one must answer 4xx `msg: 'no'` with an error key of all four
 * locales — never a 500 — and the database must not change at all. The transport itself (methods,
 * content types, broken bodies, headers, the HTTP parser) is fuzzed in fuzz-transport.test.ts; the
 * back office's API in fuzz-ops.test.ts, with the same tables (tests/support/fuzz.ts).
 */

const CASES = Object.entries(contract).flatMap(([name, ep]) => malformedCases(name, ep as Endpoint));

const EDGES = Object.entries(contract).flatMap(([name, ep]) => edgeCases(name, ep as Endpoint));

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
