import type { Kysely, Selectable } from 'kysely';
import type { AuditRow } from '#shared/backoffice';
import type { AuditLogTable, DB } from '../db/schema';
import { csvLine } from '../lib/audit-log';

/** Reading the audit log: filtered pages, the customer's history, a CSV export. */

export interface AuditFilter {
  actor?: string;
  action?: string;
  /** Actions whose name starts with this (`kyc.`). */
  actionPrefix?: string;
  customer?: number;
  from?: number;
  to?: number;
  /** Entries before this seq (paging newest first). */
  before?: number;
}

const parse = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export function auditRow(r: Selectable<AuditLogTable>): AuditRow {
  return {
    seq: r.seq,
    at: r.at,
    actor: r.actor,
    actorName: r.actor_name,
    role: r.role,
    action: r.action,
    targetType: r.target_type,
    targetId: r.target_id,
    customerId: r.customer_id,
    before: parse(r.before),
    after: parse(r.after),
    reason: r.reason,
    hash: r.hash,
  };
}

function filtered(db: Kysely<DB>, f: AuditFilter) {
  let q = db.selectFrom('audit_log').selectAll();
  if (f.actor) q = q.where((eb) => eb.or([eb('actor', '=', f.actor!), eb('actor_name', '=', f.actor!)]));
  if (f.action) q = q.where('action', '=', f.action);
  if (f.actionPrefix) q = q.where('action', 'like', `${f.actionPrefix.replace(/[%_]/g, '')}%`);
  if (f.customer !== undefined) q = q.where('customer_id', '=', f.customer);
  if (f.from !== undefined) q = q.where('at', '>=', f.from);
  if (f.to !== undefined) q = q.where('at', '<', f.to);
  if (f.before !== undefined) q = q.where('seq', '<', f.before);
  return q;
}

/** Newest first, at most `limit`. */
export async function auditRows(db: Kysely<DB>, f: AuditFilter, limit = 100): Promise<AuditRow[]> {
  const rows = await filtered(db, f).orderBy('seq', 'desc').limit(limit).execute();
  return rows.map(auditRow);
}

export async function auditPage(
  db: Kysely<DB>,
  f: AuditFilter,
): Promise<{ rows: AuditRow[]; next: number | null }> {
  const page = 50;
  const rows = await auditRows(db, f, page + 1);
  const more = rows.length > page;
  const shown = rows.slice(0, page);
  return { rows: shown, next: more ? (shown[shown.length - 1]?.seq ?? null) : null };
}

const CSV_COLUMNS = [
  'seq',
  'at',
  'actor',
  'actor_name',
  'role',
  'action',
  'target_type',
  'target_id',
  'customer_id',
  'before',
  'after',
  'reason',
  'request_id',
  'prev_hash',
  'hash',
] as const;

/** The filtered log as CSV, oldest first, every cell safe to open in a spreadsheet (csvCell). */
export async function auditCsv(db: Kysely<DB>, f: AuditFilter): Promise<string> {
  const rows = await filtered(db, f).orderBy('seq').limit(100_000).execute();
  let out = csvLine([...CSV_COLUMNS]);
  for (const r of rows)
    out += csvLine(CSV_COLUMNS.map((c) => (c === 'at' ? new Date(r.at).toISOString() : r[c])));
  return out;
}
