import { OPS_MESSAGES } from '../../../shared/backoffice';
import { exactly } from '../../format';
import { Badge, Button, Card, Empty, ErrorLine, Field, PageHead, css as s } from '../../ui';
import { type AuditField, useAudit } from './useAudit';

/**
 * The audit log: every staff and console action with who, what, when, before and
 * after; filters; a CSV export safe to open in a spreadsheet; the hash chain verified and the
 * ledger audit run from here. The filters and the checks are useAudit's.
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
  if (Array.isArray(v))
    return v.map((x) => (typeof x === 'string' && /\s/.test(x) ? `"${x}"` : plain(x))).join(' ');
  return JSON.stringify(v);
}

/**
 * A value in the change column. A list (a console command's arguments) reads as the command line
 * was typed, each word kept whole: as JSON it showed brackets and quotes, and broke "--role" after
 * its dashes.
 */
function Value({ v }: { v: unknown }) {
  if (!Array.isArray(v)) return <>{plain(v)}</>;
  return (
    <span className={s.mono}>
      {v.map((x, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the words of one fixed command line
        <span key={i} className={s.word}>
          {i > 0 ? ' ' : ''}
          {plain([x])}
        </span>
      ))}
    </span>
  );
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
        <Value v={before} /> → <Value v={after} />
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
                <Value v={a[k]} />
              ) : (
                <>
                  <Value v={b[k]} /> →{' '}
                  <span className={s.strong}>
                    <Value v={a[k]} />
                  </span>
                </>
              )
            ) : has ? (
              <>
                →{' '}
                <span className={s.strong}>
                  <Value v={a[k]} />
                </span>
              </>
            ) : (
              <span className={s.muted}>
                <Value v={b[k]} />
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The filters' fields: which, its label, and how it is typed. */
const FIELDS: Array<{ field: AuditField; label: string; type?: 'date'; numeric?: true }> = [
  { field: 'actor', label: 'Who (name or staff:id)' },
  { field: 'action', label: 'Action (e.g. payout:approve)' },
  { field: 'from', label: 'From (day)', type: 'date' },
  { field: 'to', label: 'To (day, included)', type: 'date' },
  { field: 'customer', label: 'Customer id', numeric: true },
];

export function AuditScreen() {
  const a = useAudit();
  const { rows } = a;

  return (
    <>
      <PageHead
        title="Audit log"
        subtitle="Append-only and hash-chained: the database refuses to change or delete an entry."
      >
        <Button busy={a.busy === 'verify'} onClick={a.verify}>
          Verify chain
        </Button>
        <Button busy={a.busy === 'ledger'} onClick={a.ledger}>
          Run ledger audit
        </Button>
        <Button tone="primary" onClick={() => void a.exportCsv()}>
          Export CSV
        </Button>
      </PageHead>
      <ErrorLine error={a.error} />
      {a.report && <pre className={`${a.sound ? s.ok : s.error} ${s.report} ${s.banner}`}>{a.report}</pre>}
      <Card label="Filters">
        <div className={s.filters}>
          {FIELDS.map((f) => (
            <Field key={f.field} id={`f-${f.field}`} label={f.label}>
              <input
                id={`f-${f.field}`}
                type={f.type}
                className={s.input}
                inputMode={f.numeric ? 'numeric' : undefined}
                value={a.fields[f.field]}
                onChange={(e) => a.setField(f.field, e.target.value)}
              />
            </Field>
          ))}
        </div>
      </Card>
      <div className={s.gap} />
      <Card title="Entries, newest first" flush>
        {rows.length === 0 ? (
          <Empty>{a.loading ? 'Loading…' : 'No entry matches.'}</Empty>
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
                          // Amber for what someone may need to look at (a failed factor, a
                          // refusal, a freeze), not for every payout: routine entries stay calm.
                          /failed|reject|freeze|disable/i.test(r.action)
                            ? 'warn'
                            : r.action.startsWith('payout') || r.action.startsWith('staff')
                              ? 'info'
                              : undefined
                        }
                      >
                        {r.action}
                      </Badge>
                      {r.reason && (
                        <div className={`${s.small} ${s.muted} ${s.auditReason}`}>
                          {OPS_MESSAGES[r.reason] ?? r.reason}
                        </div>
                      )}
                    </td>
                    <td className={`${s.small} ${s.nowrap}`}>
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
        {a.older && (
          <div className={s.cardBody}>
            <Button small onClick={a.older}>
              Older entries
            </Button>
          </div>
        )}
      </Card>
    </>
  );
}
