import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AuditRow } from '../../shared/backoffice';
import { call } from '../api';
import { exactly } from '../format';
import { useOps } from '../hooks';
import { Badge, Button, Card, Empty, ErrorLine, Field, PageHead, css as s } from '../ui';

/**
 * The audit log (issue 33 §10): every staff and console action with who, what, when, before and
 * after; filters; a CSV export safe to open in a spreadsheet; the hash chain verified and the
 * ledger audit run from here.
 */

const compact = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

export function Audit() {
  const [params] = useSearchParams();
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [customer, setCustomer] = useState('');
  const [before, setBefore] = useState<number | undefined>(() => {
    const seq = Number(params.get('seq'));
    return seq ? seq + 1 : undefined;
  });
  const filter = {
    actor: actor.trim() || undefined,
    action: action.trim() || undefined,
    customer: Number(customer) || undefined,
  };
  const page = useOps('audit', { ...filter, before });
  const [check, setCheck] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const rows: AuditRow[] = page.data?.rows ?? [];

  async function verify() {
    const r = await call('auditVerify');
    if (!r.ok) return setError(r.error);
    setCheck(
      r.data.ok
        ? `Chain unbroken: ${r.data.entries} entries verified.`
        : `Broken at entry ${r.data.brokenAt}: ${r.data.problem}`,
    );
  }
  async function ledger() {
    const r = await call('ledgerAudit');
    if (!r.ok) return setError(r.error);
    setCheck(
      r.data.ok
        ? `Ledger audit clean. ${r.data.text.split('\n')[0] ?? ''}`
        : `Ledger audit found ${r.data.problems} problems:\n${r.data.text}`,
    );
  }
  async function exportCsv() {
    const r = await call('auditCsv', filter);
    if (!r.ok) return setError(r.error);
    const url = URL.createObjectURL(r.data as Blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
    a.click();
    URL.revokeObjectURL(url);
  }

  return (
    <>
      <PageHead
        title="Audit log"
        subtitle="Append-only and hash-chained: the database refuses to change or delete an entry."
      >
        <Button onClick={() => void verify()}>Verify chain</Button>
        <Button onClick={() => void ledger()}>Run ledger audit</Button>
        <Button tone="primary" onClick={() => void exportCsv()}>
          Export CSV
        </Button>
      </PageHead>
      <ErrorLine error={page.error ?? error} />
      {check && (
        <pre
          className={`${check.startsWith('Chain unbroken') || check.startsWith('Ledger audit clean') ? s.ok : s.error} ${s.report} ${s.banner}`}
        >
          {check}
        </pre>
      )}
      <Card label="Filters">
        <div className={s.filters}>
          <Field id="f-actor" label="Who (name or staff:id)">
            <input
              id="f-actor"
              className={s.input}
              value={actor}
              onChange={(e) => {
                setActor(e.target.value);
                setBefore(undefined);
              }}
            />
          </Field>
          <Field id="f-action" label="Action (e.g. payout:approve)">
            <input
              id="f-action"
              className={s.input}
              value={action}
              onChange={(e) => {
                setAction(e.target.value);
                setBefore(undefined);
              }}
            />
          </Field>
          <Field id="f-customer" label="Customer id">
            <input
              id="f-customer"
              className={s.input}
              inputMode="numeric"
              value={customer}
              onChange={(e) => {
                setCustomer(e.target.value);
                setBefore(undefined);
              }}
            />
          </Field>
        </div>
      </Card>
      <div className={s.gap} />
      <Card title="Entries, newest first" flush>
        {rows.length === 0 ? (
          <Empty>{page.loading ? 'Loading…' : 'No entry matches.'}</Empty>
        ) : (
          <div className={s.tableWrap}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th>#</th>
                  <th>When</th>
                  <th>Who</th>
                  <th>Action</th>
                  <th>On</th>
                  <th>Before → after</th>
                  <th>Hash</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.seq}>
                    <td className={s.mono}>{r.seq}</td>
                    <td className={s.small}>{exactly(r.at)}</td>
                    <td>
                      {r.actorName}
                      <div className={`${s.small} ${s.muted}`}>{r.role ?? r.actor}</div>
                    </td>
                    <td>
                      <Badge
                        tone={
                          r.action.startsWith('payout')
                            ? 'warn'
                            : r.action.startsWith('staff')
                              ? 'info'
                              : undefined
                        }
                      >
                        {r.action}
                      </Badge>
                      {r.reason && <div className={`${s.small} ${s.muted}`}>{r.reason}</div>}
                    </td>
                    <td className={s.small}>
                      {r.targetType ? `${r.targetType} ${r.targetId ?? ''}` : '—'}
                      {r.customerId && <div className={s.muted}>customer {r.customerId}</div>}
                    </td>
                    <td className={`${s.small} ${s.mono} ${s.diff}`}>
                      {compact(r.before)}
                      {r.before !== null && r.after !== null && ' → '}
                      {compact(r.after)}
                    </td>
                    <td className={`${s.small} ${s.mono} ${s.muted}`} title={r.hash}>
                      {r.hash.slice(0, 10)}…
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {page.data?.next && (
          <div className={s.cardBody}>
            <Button small onClick={() => setBefore(page.data!.next!)}>
              Older entries
            </Button>
          </div>
        )}
      </Card>
    </>
  );
}
