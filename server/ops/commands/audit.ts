import { verifyAuditChain } from '../../lib/audit-verify';
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
    summary:
      "prove the audit log whole: triggers, every entry's hash, link and MAC, and the signed heads (a cut tail)",
    mutates: false,
    async run(deps) {
      const r = await verifyAuditChain(deps.database);
      const facts = [
        `${r.entries} entries`,
        r.unsealed > 0 ? `${r.unsealed} from before MACs began (hash chain only)` : null,
        r.signedHead
          ? `newest signed head: entry ${r.signedHead.seq} of ${new Date(r.signedHead.at).toISOString()}`
          : 'no signed head yet',
        `heads file ${r.headsFile}`,
      ].filter(Boolean);
      if (!r.ok)
        throw new Error(
          [`Audit log NOT proven (${facts.join('; ')}):`, ...r.problems.map((p) => `  - ${p}`)].join('\n'),
        );
      return `Audit log verified: ${facts.join('; ')}; chain unbroken, every MAC good (head ${r.head.slice(0, 16)}…)`;
    },
  },
];
