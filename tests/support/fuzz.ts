import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { Call } from '#shared/contract/define';
import { accepts, objectBranches, type Schema, sample, validRequest } from './schemas';

/**
 * What the fuzz suites send and assert, written once. Sent: the malformed-input table of an API
 * entry (the customer contract's, or the back office's OPS_API: both are a `Call` with a TypeBox
 * request schema) and valid requests with extreme values. Asserted about every refused request:
 * the envelope (a 4xx, `msg: 'no'` — `logout` only with 401 — and an error key the caller's app
 * can say: by default one translated in all four locales), and that the database did not change at
 * all (every table's rows, not only their counts).
 */

/** An entry the tables are built from: the customer's `Endpoint` or the back office's `OpsEndpoint`. */
export type Target = Call & { upload?: boolean };

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

export interface Case {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  /** JSON value for POST (or raw text when `raw`), query strings for GET. */
  input: unknown;
  raw?: string;
  contentType?: string;
}

export function malformedCases(name: string, ep: Target): Case[] {
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

/** Valid requests with extreme values (EDGE_VALUES and each string field at its maximum length). */
export function edgeCases(name: string, ep: Target): Case[] {
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

const LOCALES = path.resolve(__dirname, '../../locales');
const LANGS = ['en', 'zh', 'es', 'de'];

function leaves(node: unknown, prefix: string, out: Set<string>): void {
  if (node === null || typeof node !== 'object') {
    out.add(prefix);
    return;
  }
  for (const [k, v] of Object.entries(node as Record<string, unknown>))
    leaves(v, prefix ? `${prefix}.${k}` : k, out);
}

function keysOf(lang: string): Set<string> {
  const out = new Set<string>();
  for (const file of fs.readdirSync(path.join(LOCALES, lang)).filter((f) => f.endsWith('.json'))) {
    leaves(JSON.parse(fs.readFileSync(path.join(LOCALES, lang, file), 'utf8')), '', out);
  }
  return out;
}

const PER_LANG = LANGS.map(keysOf);
/** Is `key` a message of every one of the four locales? */
export const translated = (key: string): boolean => PER_LANG.every((keys) => keys.has(key));

export interface Answered {
  statusCode: number;
  body: string;
  /** When given, they must name the answer's request id (`x-request-id`). */
  headers?: Record<string, unknown>;
}

/** Why `res` is not a proper refusal, or null when it is one. */
export function refusalProblem(res: Answered, known: (key: string) => boolean = translated): string | null {
  if (res.statusCode < 400 || res.statusCode >= 500) return `status ${res.statusCode}`;
  if (res.headers && typeof res.headers['x-request-id'] !== 'string') return 'no x-request-id header';
  let body: { msg?: unknown; data?: unknown };
  try {
    body = JSON.parse(res.body);
  } catch {
    return 'body is not JSON';
  }
  const msg = res.statusCode === 401 ? 'logout' : 'no';
  if (body.msg !== msg) return `msg ${JSON.stringify(body.msg)}, expected ${msg}`;
  if (typeof body.data !== 'string' || !known(body.data))
    return `data ${JSON.stringify(body.data)} is not a message the caller's app knows`;
  return null;
}

/** Why `res` is unacceptable for a request that may be served or refused, or null. */
export function answerProblem(res: Answered, known: (key: string) => boolean = translated): string | null {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (res.statusCode >= 400) return refusalProblem(res, known);
  return null;
}

const json = (value: unknown) => JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** A fingerprint of every row of every table: equal fingerprints mean nothing was written. */
// biome-ignore lint/suspicious/noExplicitAny: any database schema
export async function tableDigest(db: Kysely<any>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await db.introspection.getTables()) {
    const r = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(db);
    const rows = r.rows.map(json).sort();
    out[table.name] =
      `${rows.length}:${createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return out;
}
