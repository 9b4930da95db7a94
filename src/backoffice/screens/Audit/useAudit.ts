import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AuditRow } from '../../../shared/backoffice';
import { call, downloadCsv } from '../../api';
import { useAction, useOps } from '../../hooks';

export type AuditField = 'actor' | 'action' | 'customer' | 'from' | 'to';

/** A date field's day (the desk's own calendar): its start, or (`end`) the next day's start, as the API's `to` excludes it. */
function dayBound(value: string, end: boolean): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime();
  return end ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1).getTime() : start;
}

/**
 * The audit log's data and its checks: the filters (a change starts again from the newest entry),
 * the page and the older one, and one function per check — verify the hash chain, run the ledger
 * audit — through `useAction` (which is busy, the refusal, the report), and the CSV of what the
 * filters show.
 */
export function useAudit() {
  const [params] = useSearchParams();
  const [fields, setFields] = useState<Record<AuditField, string>>({
    actor: '',
    action: '',
    customer: '',
    from: '',
    to: '',
  });
  const [before, setBefore] = useState<number | undefined>(() => {
    const seq = Number(params.get('seq'));
    return seq ? seq + 1 : undefined;
  });
  const filter = {
    actor: fields.actor.trim() || undefined,
    action: fields.action.trim() || undefined,
    customer: Number(fields.customer) || undefined,
    from: dayBound(fields.from, false),
    to: dayBound(fields.to, true),
  };
  const page = useOps('audit', { ...filter, before });
  const checks = useAction();
  const [exportError, setExportError] = useState<string | null>(null);
  const rows: AuditRow[] = page.data?.rows ?? [];
  const next = page.data?.next;

  const verify = () =>
    void checks.run(
      'verify',
      () => call('auditVerify'),
      (d) =>
        d.ok
          ? `Chain unbroken: ${d.entries} entries verified.`
          : `Broken at entry ${d.brokenAt}: ${d.problem}`,
    );
  const ledger = () =>
    void checks.run(
      'ledger',
      () => call('ledgerAudit'),
      (d) =>
        d.ok
          ? `Ledger audit clean. ${d.text.split('\n')[0] ?? ''}`
          : `Ledger audit found ${d.problems} problems:\n${d.text}`,
    );

  return {
    fields,
    setField: (field: AuditField, value: string) => {
      setFields((f) => ({ ...f, [field]: value }));
      setBefore(undefined);
    },
    rows,
    loading: page.loading,
    older: next ? () => setBefore(next) : null,
    verify,
    ledger,
    /** Which check runs: `verify` or `ledger`. */
    busy: checks.busy,
    /** The last check's report, and whether it found the log and the ledger sound. */
    report: checks.note,
    sound: checks.note?.startsWith('Chain unbroken') || checks.note?.startsWith('Ledger audit clean'),
    error: page.error ?? checks.error ?? exportError,
    exportCsv: async () => setExportError(await downloadCsv('auditCsv', filter, 'audit')),
  };
}
