import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';

/**
 * What the fuzz suites assert about every refused request, written once: the envelope (a 4xx,
 * `msg: 'no'` — `logout` only with 401 — and an i18n key translated in all four locales), and
 * that the database did not change at all (every table's rows, not only their counts).
 */

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
const translated = (key: string): boolean => PER_LANG.every((keys) => keys.has(key));

export interface Answered {
  statusCode: number;
  body: string;
  /** When given, they must name the answer's request id (`x-request-id`). */
  headers?: Record<string, unknown>;
}

/** Why `res` is not a proper refusal, or null when it is one. */
export function refusalProblem(res: Answered): string | null {
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
  if (typeof body.data !== 'string' || !translated(body.data))
    return `data ${JSON.stringify(body.data)} is not a key of all four locales`;
  return null;
}

/** Why `res` is unacceptable for a request that may be served or refused, or null. */
export function answerProblem(res: Answered): string | null {
  if (res.statusCode >= 500) return `status ${res.statusCode}`;
  if (res.statusCode >= 400) return refusalProblem(res);
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
