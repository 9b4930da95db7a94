import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import type { Job } from '../jobs/job';
import { type AuditReport, auditLedger } from '../wallet/audit';

/**
 * Runs of the ledger audit, recorded (table `ledger_audits`) so the metrics report the last result
 * whoever ran it: the server's `ledger:audit` job (LEDGER_AUDIT_MS) or the console's
 * `npm run ops -- ledger:audit`.
 */

/** Runs the audit on `db` and records the run; answers the report. */
export async function auditAndRecord(
  db: Kysely<DB>,
  source: 'job' | 'console',
  now: () => number,
): Promise<AuditReport> {
  const startedAt = now();
  const started = performance.now();
  const report = await auditLedger(db);
  await db
    .insertInto('ledger_audits')
    .values({
      started_at: startedAt,
      took_ms: Math.round(performance.now() - started),
      source,
      users: report.users,
      postings: report.postings,
      problems: report.problems.length,
      summary: report.problems.slice(0, 20).join('\n'),
    })
    .execute();
  return report;
}

/** The last recorded run, if any. */
export function lastAudit(db: Kysely<DB>) {
  return db.selectFrom('ledger_audits').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** The server's periodic audit (config.ledgerAuditMs; main.ts adds it when that is not 0). */
export function ledgerAuditJob(everyMs: number): Job {
  return {
    name: 'ledger:audit',
    everyMs,
    async run(deps: Deps) {
      await auditAndRecord(deps.database.db, 'job', () => deps.clock.now());
    },
  };
}
