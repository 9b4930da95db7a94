import { type Selectable, sql } from 'kysely';
import type { Database } from '../db/index';
import type { AuditLogTable } from '../db/schema';
import { entryHash, GENESIS, sealOf } from './audit-log';
import type { SignedHead } from './audit-seal';

/**
 * `audit:verify`: whether the audit log is whole, checked against what a writer to the database
 * cannot reach.
 * 1. The triggers that make it append-only are there, enabled and unchanged (dropped or replaced
 *    by someone holding the database, they would let rows go unseen until the next check).
 * 2. Every entry in order: its number, its link to the one before, its hash, and its MAC under
 *    AUDIT_KEY — an entry added, or altered and rehashed along with every one after it, without
 *    the key fails here and is named.
 * 3. Every signed head in the heads file (outside the database) is still in the chain with the same
 *    hash; the newest one proves how long the chain was: a chain that now ends before it was cut.
 * Entries from before MACs began (none on a database created since) cannot be proven beyond their
 * hash chain; they are counted and said.
 */

type Row = Selectable<AuditLogTable>;

export interface ChainReport {
  entries: number;
  ok: boolean;
  /** The first entry found altered, forged or missing (null: none). */
  brokenAt: number | null;
  /** The first problem, as `problems[0]`. */
  problem: string | null;
  /** Everything found, in order: triggers, the chain, the heads. */
  problems: string[];
  head: string;
  /** Entries from before MACs began (only a prefix may have none). */
  unsealed: number;
  /** The newest signed head found in the heads file. */
  signedHead: { seq: number; at: number } | null;
  headsFile: string;
}

const norm = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The triggers of migration 070, as the database writes them back. */
const SQLITE_TRIGGERS: Record<string, string> = {
  audit_log_no_update:
    "create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end",
  audit_log_no_delete:
    "create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end",
};
const PG_TRIGGERS: Record<string, string> = {
  audit_log_no_change:
    'create trigger audit_log_no_change before delete or update on audit_log for each row execute function audit_log_append_only()',
  audit_log_no_truncate:
    'create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()',
};

/** What is wrong with the append-only triggers (empty: all there, enabled, as made). */
export async function triggerProblems(database: Database): Promise<string[]> {
  const problems: string[] = [];
  if (database.dialect === 'sqlite') {
    const rows = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master
      where type = 'trigger' and tbl_name = 'audit_log'`.execute(database.db);
    const found = new Map(rows.rows.map((r) => [r.name, norm(r.sql)]));
    for (const [name, made] of Object.entries(SQLITE_TRIGGERS)) {
      const now = found.get(name);
      if (now === undefined)
        problems.push(`trigger ${name} is missing: the database no longer refuses that change`);
      else if (now !== made) problems.push(`trigger ${name} was replaced: ${now}`);
    }
    for (const name of found.keys())
      if (!(name in SQLITE_TRIGGERS)) problems.push(`an unknown trigger ${name} is on audit_log`);
    return problems;
  }
  const rows = await sql<{ tgname: string; tgenabled: string; def: string }>`select tgname, tgenabled,
      pg_get_triggerdef(oid) as def from pg_trigger
      where tgrelid = 'audit_log'::regclass and not tgisinternal`.execute(database.db);
  const found = new Map(rows.rows.map((r) => [r.tgname, r]));
  for (const [name, made] of Object.entries(PG_TRIGGERS)) {
    const now = found.get(name);
    if (!now) problems.push(`trigger ${name} is missing: the database no longer refuses that change`);
    else {
      const def = norm(now.def).replace(/ on (?:"?\w+"?\.)?audit_log /, ' on audit_log ');
      if (def !== made) problems.push(`trigger ${name} was replaced: ${def}`);
      if (now.tgenabled !== 'O' && now.tgenabled !== 'A') problems.push(`trigger ${name} is disabled`);
    }
  }
  for (const name of found.keys())
    if (!(name in PG_TRIGGERS)) problems.push(`an unknown trigger ${name} is on audit_log`);
  const fn = await sql<{ src: string }>`select prosrc as src from pg_proc
    where proname = 'audit_log_append_only'`.execute(database.db);
  if (
    fn.rows.length !== 1 ||
    norm(fn.rows[0]!.src) !== "begin raise exception 'audit_log is append-only'; end"
  )
    problems.push('the function audit_log_append_only was changed or is missing');
  return problems;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Walks the whole chain page by page, then holds it against the signed heads. */
export async function verifyAuditChain(database: Database): Promise<ChainReport> {
  const seal = sealOf(database);
  const problems = await triggerProblems(database);
  const { heads, badLines } = seal.readHeads();
  if (badLines > 0)
    problems.push(`${badLines} line(s) of the heads file ${seal.file} are not signed by the audit key`);
  // The newest head per entry number (a restarted writer may sign one twice: the same hash).
  const signed = new Map<number, SignedHead>();
  for (const h of heads) signed.set(h.seq, h);

  let prev = GENESIS;
  let expected = 1;
  let entries = 0;
  let unsealed = 0;
  let sealedSeen = false;
  let brokenAt: number | null = null;
  const broken = (seq: number, problem: string) => {
    brokenAt = seq;
    problems.push(problem);
  };
  walk: for (;;) {
    const page: Row[] = await database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('seq', '>=', expected)
      .orderBy('seq')
      .limit(1000)
      .execute();
    if (page.length === 0) break;
    for (const row of page) {
      if (row.seq !== expected) {
        broken(expected, `entry ${expected} is missing`);
        break walk;
      }
      if (row.prev_hash !== prev) {
        broken(row.seq, `entry ${row.seq} does not follow entry ${row.seq - 1}`);
        break walk;
      }
      const { hash, mac, ...rest } = row;
      if (entryHash(rest) !== hash) {
        broken(row.seq, `entry ${row.seq} was altered`);
        break walk;
      }
      if (mac === null && !sealedSeen) unsealed += 1;
      else if (!seal.macOk(hash, mac)) {
        broken(
          row.seq,
          `entry ${row.seq} has no valid MAC: it was added, or altered and rehashed, by someone without the audit key`,
        );
        break walk;
      } else sealedSeen = true;
      const head = signed.get(row.seq);
      if (head && head.hash !== hash) {
        broken(row.seq, `entry ${row.seq} differs from its signed head of ${iso(head.at)}: it was rewritten`);
        break walk;
      }
      prev = hash;
      expected += 1;
      entries += 1;
    }
  }
  const newest = heads.reduce<SignedHead | null>((a, h) => (a === null || h.seq > a.seq ? h : a), null);
  const end = expected - 1;
  if (brokenAt === null && newest && newest.seq > end)
    problems.push(
      `the chain ends at entry ${end}, but entry ${newest.seq} was signed at ${iso(newest.at)}: ` +
        `entries ${end + 1}–${newest.seq} were cut`,
    );
  if (brokenAt === null && sealedSeen && !newest)
    problems.push(
      `no signed head in ${seal.file}: a cut tail could not be seen (is AUDIT_HEADS_FILE right?)`,
    );
  const writeError = seal.writeError();
  if (writeError) problems.push(`the heads file could not be written: ${writeError}`);
  return {
    entries,
    ok: problems.length === 0,
    brokenAt,
    problem: problems[0] ?? null,
    problems,
    head: prev,
    unsealed,
    signedHead: newest ? { seq: newest.seq, at: newest.at } : null,
    headsFile: seal.file,
  };
}
