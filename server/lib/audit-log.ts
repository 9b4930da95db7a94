import { createHash } from 'node:crypto';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Dialect } from '../db/dialect';
import { type Database, withTx } from '../db/index';
import type { AuditLogTable, DB } from '../db/schema';
import type { AuditSeal } from './audit-seal';
import { tapPostings } from './ledger';

/**
 * The audit log: every staff and operator action, append-only and hash-chained.
 * - Only this module writes it, and only by INSERT; the database refuses UPDATE and DELETE
 *   (migration 070's triggers), so no code path — ours or a console's — alters an entry in place.
 * - Each entry's `hash` is SHA-256 of the previous entry's hash and its own fields (its `seq`
 *   included), so an entry changed, removed or reordered by anyone with raw access to the files
 *   breaks the chain from there on: `verifyAuditChain` (audit-verify.ts, `npm run ops --
 *   audit:verify`) finds where.
 * - A hash alone can be recomputed by whoever rewrites the table, so each entry also carries a MAC
 *   under a key the database never holds, and each committed head is signed into a file outside
 *   it (audit-seal.ts): a forged or rehashed entry fails its MAC, a cut tail its signed head.
 * - An action and its entry commit in one transaction (`audited`): there is no action without its
 *   entry and no entry of an action that rolled back. Ledger postings made inside it point at the
 *   entry (`ledger.audit_seq`), and the entry lists them.
 */

/** Who acted: a staff member (`staff:<id>`), the console (`cli:<operator>`) or the server itself. */
export interface Actor {
  key: string;
  name: string;
  role: string | null;
  /** The staff member's id (null for the console and the server). */
  staffId: number | null;
  /** The request that carried the action, tying the entry to the server's log line. */
  requestId?: string | null;
}

/** The console's operator: the name given in OPS_OPERATOR, else the account running the command. */
export function consoleActor(name: string): Actor {
  const clean = name.replace(/[^\w.@-]/g, '').slice(0, 64) || 'unknown';
  return { key: `cli:${clean}`, name: clean, role: 'console', staffId: null };
}

/** What was done, to what, and the state before and after (any JSON). */
export interface AuditEntry {
  action: string;
  targetType?: string | null;
  targetId?: string | number | null;
  customerId?: number | null;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
}

/** The hash before the first entry. */
export const GENESIS = '0'.repeat(64);

/** A transaction-scoped advisory lock that serialises appends on PostgreSQL (SQLite has one writer). */
const AUDIT_LOCK = 0x6175_6469; // "audi"

type Row = Selectable<AuditLogTable>;
type Hashed = Omit<Row, 'hash' | 'mac'>;

/** The seal of each database's audit log, set once with its configuration (deps.ts). */
const seals = new WeakMap<Database, AuditSeal>();

export function sealAuditLog(database: Database, seal: AuditSeal): void {
  seals.set(database, seal);
}

/** The database's seal: an entry is never written unsealed (fail closed). */
export function sealOf(database: Database): AuditSeal {
  const seal = seals.get(database);
  if (!seal) throw new Error('the audit log has no key: build the database through createDeps');
  return seal;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/** The entry's hash: the previous hash and every field but its own hash, in a fixed order. */
export function entryHash(row: Hashed): string {
  const fields = [
    row.seq,
    row.at,
    row.actor,
    row.actor_name,
    row.role,
    row.action,
    row.target_type,
    row.target_id,
    row.customer_id,
    row.before,
    row.after,
    row.reason,
    row.request_id,
  ];
  return createHash('sha256')
    .update(`${row.prev_hash}\n${JSON.stringify(fields)}`)
    .digest('hex');
}

/**
 * Appends one entry in the caller's transaction and answers its `seq`. Call it last in the
 * transaction (after the action's row locks), so the chain's lock is held only to its commit.
 */
export async function appendAudit(
  trx: Kysely<DB>,
  dialect: Dialect,
  seal: AuditSeal,
  actor: Actor,
  entry: AuditEntry,
  at: number,
): Promise<{ seq: number; hash: string; at: number }> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${AUDIT_LOCK})`.execute(trx);
  const last = await trx
    .selectFrom('audit_log')
    .select(['seq', 'hash'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const row: Hashed = {
    seq: (last?.seq ?? 0) + 1,
    at,
    actor: actor.key,
    actor_name: actor.name,
    role: actor.role,
    action: entry.action,
    target_type: entry.targetType ?? null,
    target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
    customer_id: entry.customerId ?? null,
    before: json(entry.before),
    after: json(entry.after),
    reason: entry.reason ?? null,
    request_id: actor.requestId ?? null,
    prev_hash: last?.hash ?? GENESIS,
  };
  const hash = entryHash(row);
  await trx
    .insertInto('audit_log')
    .values({ ...row, hash, mac: seal.mac(hash) })
    .execute();
  return { seq: row.seq, hash, at };
}

/**
 * Runs `action` and writes its audit entry in one transaction. The action answers its result and
 * its entry; the ledger postings it made are listed in the entry's `after.postings` and point back
 * at it (`ledger.audit_seq`). A refusal (a thrown error) rolls back both.
 */
export async function audited<T>(
  database: Database,
  actor: Actor,
  now: () => number,
  action: (trx: Kysely<DB>) => Promise<{ result: T; entry: AuditEntry }>,
): Promise<{ result: T; seq: number }> {
  const seal = sealOf(database);
  const done = await withTx(database, async (trx) => {
    const postings = tapPostings(trx);
    let done: { result: T; entry: AuditEntry };
    try {
      done = await action(trx);
    } finally {
      postings.stop();
    }
    const { entry } = done;
    const after =
      postings.ids.length > 0
        ? {
            ...(typeof entry.after === 'object' && entry.after !== null ? entry.after : {}),
            postings: postings.ids,
          }
        : entry.after;
    const head = await appendAudit(trx, database.dialect, seal, actor, { ...entry, after }, now());
    if (postings.ids.length > 0)
      await trx.updateTable('ledger').set({ audit_seq: head.seq }).where('id', 'in', postings.ids).execute();
    return { result: done.result, ...head };
  });
  // Committed: its head is signed outside the database, so a cut tail cannot pass for the whole.
  seal.recordHead(done.seq, done.hash, done.at);
  return { result: done.result, seq: done.seq };
}

/**
 * A refusal worth keeping (a 403 to a member, a wrong code, a failed staff sign-in): written in a
 * transaction of its own, since the refused action's rolled back. Never throws: the caller answers
 * the refusal it was about to answer.
 */
export async function auditRefusal(database: Database, actor: Actor, now: () => number, entry: AuditEntry) {
  try {
    await audited(database, actor, now, async () => ({ result: undefined, entry }));
  } catch {
    // The database is failing: the refusal still goes out; the request log has it.
  }
}

/**
 * A spreadsheet-safe CSV cell (OWASP "CSV injection"): a text a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) is prefixed with a quote; every cell is quoted.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
