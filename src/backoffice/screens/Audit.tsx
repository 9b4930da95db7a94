import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AuditRow } from '../../shared/backoffice';
import { call, downloadCsv } from '../api';
import { exactly } from '../format';
import { useOps } from '../hooks';
import { Badge, Button, Card, Empty, ErrorLine, Field, PageHead, css as s } from '../ui';

/**
 * The audit log: every staff and console action with who, what, when, before and
 * after; filters; a CSV export safe to open in a spreadsheet; the hash chain verified and the
 * ledger audit run from here.
 */

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as a person reads it: text as is, numbers and flags as words, anything deeper compact. */
function plain(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return String(v);
  if (isRecord(v))
    return Object.entries(v)
      .map(([k, x]) => `${k} ${plain(x)}`)
      .join(', ');
  return JSON.stringify(v);
}

/**
 * What an entry changed, one line per field: "status: n → y" where both sides name it; a field
 * only the before names reads as it was (muted), one only the after names as "→ value". Objects
 * that are not field maps show whole.
 */
function Change({ before, after }: { before: unknown; after: unknown }) {
  if (!isRecord(before) && !isRecord(after)) {
    if (before == null && after == null) return <span className={s.muted}>—</span>;
    return (
      <>
        {plain(before)} → {plain(after)}
      </>
    );
  }
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return (
    <ul className={s.changes}>
      {keys.map((k) => {
        const had = k in b;
        const has = k in a;
        return (
          <li key={k}>
            <span className={s.muted}>{k}:</span>{' '}
            {had && has ? (
              JSON.stringify(b[k]) === JSON.stringify(a[k]) ? (
                plain(a[k])
              ) : (
                <>
                  {plain(b[k])} → <span className={s.strong}>{plain(a[k])}</span>
                </>
              )
            ) : has ? (
              <>
                → <span className={s.strong}>{plain(a[k])}</span>
              </>
            ) : (
              <span className={s.muted}>{plain(b[k])}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** A date field's day (the desk's own calendar): its start, or (`end`) the next day's start, as the API's `to` excludes it. */
function dayBound(value: string, end: boolean): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime();
  return end ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1).getTime() : start;
}

export function Audit() {
  const [params] = useSearchParams();
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [customer, setCustomer] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [before, setBefore] = useState<number | undefined>(() => {
    const seq = Number(params.get('seq'));
    return seq ? seq + 1 : undefined;
  });
  const filter = {
    actor: actor.trim() || undefined,
    action: action.trim() || undefined,
    customer: Number(customer) || undefined,
    from: dayBound(from, false),
    to: dayBound(to, true),
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
    setError(await downloadCsv('auditCsv', filter, 'audit'));
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
          <Field id="f-from" label="From (day)">
            <input
              id="f-from"
              type="date"
              className={s.input}
              value={from}
              onChange={(e) => {
                setFrom(e.target.value);
                setBefore(undefined);
              }}
            />
          </Field>
          <Field id="f-to" label="To (day, included)">
            <input
              id="f-to"
              type="date"
              className={s.input}
              value={to}
              onChange={(e) => {
                setTo(e.target.value);
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
                    <td className={`${s.small} ${s.nowrap}`}>{exactly(r.at)}</td>
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
                    <td className={`${s.small} ${s.diff}`}>
                      <Change before={r.before} after={r.after} />
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
