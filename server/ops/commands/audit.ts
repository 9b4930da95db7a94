import { auditLedger, formatAudit } from '../../wallet/audit';
import type { OpsCommand } from './command';

/** `ledger:audit`: the ledger audit of wallet/audit.ts; a non-zero exit when anything is off. */
export const AUDIT_COMMANDS: OpsCommand[] = [
  {
    name: 'ledger:audit',
    usage: 'ledger:audit [--json]',
    summary: 'check every balance against its postings and every money row against the ledger',
    mutates: false,
    async run(deps, args) {
      const report = await auditLedger(deps.database.db);
      const text = args.includes('--json') ? JSON.stringify(report, null, 2) : formatAudit(report);
      if (report.problems.length > 0) throw new Error(text);
      return text;
    },
  },
];
