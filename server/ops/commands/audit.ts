import { verifyAuditChain } from '../../lib/audit-log';
import { formatAudit } from '../../wallet/audit';
import { auditAndRecord } from '../audit-runs';
import type { OpsCommand } from './command';

/**
 * `ledger:audit`: the ledger audit of wallet/audit.ts; `audit:verify`: the audit log's hash chain
 * (lib/audit-log.ts). Each exits non-zero when anything is off.
 */
export const AUDIT_COMMANDS: OpsCommand[] = [
  {
    name: 'ledger:audit',
    usage: 'ledger:audit [--json]',
    summary: 'check every balance against its postings and every money row against the ledger',
    mutates: false,
    async run(deps, args) {
      // Recorded, so the server's metrics report this run's result (cron runs it on SQLite).
      const report = await auditAndRecord(deps.database.db, 'console', () => deps.clock.now());
      const text = args.includes('--json') ? JSON.stringify(report, null, 2) : formatAudit(report);
      if (report.problems.length > 0) throw new Error(text);
      return text;
    },
  },
  {
    name: 'audit:verify',
    usage: 'audit:verify',
    summary: "prove the audit log's hash chain unbroken: every entry's hash, link and number",
    mutates: false,
    async run(deps) {
      const r = await verifyAuditChain(deps.database.db);
      if (!r.ok)
        throw new Error(
          `Audit log broken at entry ${r.brokenAt}: ${r.problem} (${r.entries} entries before it verified)`,
        );
      return `Audit log verified: ${r.entries} entries, chain unbroken (head ${r.head.slice(0, 16)}…)`;
    },
  },
];
