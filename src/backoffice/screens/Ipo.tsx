import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../shared/format';
import { call } from '../api';
import { rupees, when } from '../format';
import { useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { useMe } from '../session';
import { Badge, Button, Card, Empty, ErrorLine, Field, PageHead, css as s } from '../ui';

/**
 * IPO allotment: the table previewed at a ratio before anything moves; one member
 * proposes it, another runs it (never the proposer), and only while the applications are what the
 * table was made from.
 */
export function Ipo() {
  const me = useMe();
  const list = useOps('ipos', {}, 15_000);
  const [picked, setPicked] = useState<number | null>(null);
  const [ratio, setRatio] = useState('1');
  const preview = useOps('ipoPreview', picked ? { id: picked, ratio } : null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const rows = (list.data ?? []).filter((i) => i.pendingApplications > 0 || i.proposal);
  const p = preview.data;

  async function propose() {
    if (!picked) return;
    const r = await call('ipoPropose', { id: picked, ratio });
    setError(r.ok ? null : r.error);
    setNote(r.ok ? 'Proposed. A second member runs it.' : null);
    preview.reload();
    list.reload();
  }
  async function run() {
    if (!picked || !p?.proposal) return;
    const r = await call('ipoRun', { id: picked, proposal: p.proposal.id });
    setError(r.ok ? null : r.error);
    setNote(r.ok ? `Allotted: ${r.data.allotted} applications, ${r.data.refunded} refunded in full.` : null);
    preview.reload();
    list.reload();
  }

  return (
    <>
      <PageHead
        title="IPO allotment"
        subtitle="Preview the table, propose it, and a second member runs it."
      />
      <ErrorLine error={list.error ?? error} />
      {note && (
        <p className={`${s.ok} ${s.banner}`} role="status">
          {note}
        </p>
      )}
      <div className={s.split}>
        <Card title="IPOs with applications" flush>
          {rows.length === 0 ? (
            <Empty>{list.loading ? 'Loading…' : 'No IPO has pending applications.'}</Empty>
          ) : (
            <table className={s.table}>
              <thead>
                <tr>
                  <th>IPO</th>
                  <th>Status</th>
                  <th>Closes</th>
                  <th className={s.num}>Applications</th>
                  <th className={s.num}>Blocked</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((i) => (
                  <tr key={i.id} className={i.id === picked ? s.rowActive : undefined}>
                    <td>
                      <div className={s.strong}>{i.symbol}</div>
                      <div className={`${s.small} ${s.muted}`}>{i.company}</div>
                    </td>
                    <td>
                      {i.proposal ? (
                        <Badge tone="warn">Proposed · {i.proposal.proposedName}</Badge>
                      ) : (
                        i.status
                      )}
                    </td>
                    <td className={s.small}>{when(i.issueEnd)}</td>
                    <td className={s.num}>{i.pendingApplications}</td>
                    <td className={s.num}>{rupees(i.frozen)}</td>
                    <td className={s.num}>
                      <Button small onClick={() => setPicked(i.id)}>
                        Preview
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        <Card title={p ? `Allotment table · ${p.symbol}` : 'Allotment table'}>
          {!picked ? (
            <p className={s.muted}>Pick an IPO to preview its table.</p>
          ) : (
            <div className={s.stack}>
              <Field id="ratio" label="Share of each application allotted (0 to 1, whole lots of 100)">
                <input
                  id="ratio"
                  className={s.input}
                  value={ratio}
                  onChange={(e) => setRatio(e.target.value)}
                />
              </Field>
              <ErrorLine error={preview.error} />
              {p && (
                <>
                  <dl className={s.dl}>
                    <dt>Applications</dt>
                    <dd>{p.totals.applications}</dd>
                    <dt>Shares applied / allotted</dt>
                    <dd>
                      {formatNumber(p.totals.applied, 0)} / {formatNumber(p.totals.allotted, 0)}
                    </dd>
                    <dt>Charged</dt>
                    <dd>{rupees(p.totals.charged)}</dd>
                    <dt>Refunded</dt>
                    <dd>{rupees(p.totals.refund)}</dd>
                  </dl>
                  <div className={`${s.tableWrap} ${s.scrollBox}`}>
                    <table className={s.table}>
                      <thead>
                        <tr>
                          <th>Customer</th>
                          <th className={s.num}>Applied</th>
                          <th className={s.num}>Allotted</th>
                          <th className={s.num}>Refund</th>
                        </tr>
                      </thead>
                      <tbody>
                        {p.lines.map((l) => (
                          <tr key={l.orderId}>
                            <td>
                              <Link className={s.mono} to={OPS_PATHS.customer(l.userId)}>
                                {l.phone}
                              </Link>
                            </td>
                            <td className={s.num}>{l.applied}</td>
                            <td className={s.num}>{l.allotted}</td>
                            <td className={s.num}>{rupees(l.refund)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                  {p.proposal && (
                    <p className={p.proposal.intact ? s.notice : s.error}>
                      Proposed at {p.proposal.ratio} by {p.proposal.proposedName},{' '}
                      {when(p.proposal.proposedAt)}
                      {!p.proposal.intact && ' — the applications changed since: propose again.'}
                    </p>
                  )}
                  <div className={s.row}>
                    {me.caps.includes('pay') && (
                      <Button onClick={() => void propose()} disabled={p.lines.length === 0}>
                        Propose at {p.ratio}
                      </Button>
                    )}
                    {me.caps.includes('approve') && p.proposal && (
                      <Button
                        tone="primary"
                        onClick={() => void run()}
                        disabled={!p.proposal.intact || p.proposal.proposedBy === `staff:${me.id}`}
                        title={
                          p.proposal.proposedBy === `staff:${me.id}`
                            ? 'You proposed it: another member runs it'
                            : undefined
                        }
                      >
                        Run the proposed allotment
                      </Button>
                    )}
                  </div>
                </>
              )}
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
