import { Link } from 'react-router-dom';
import { formatNumber } from '../../../shared/format';
import { rupees, when } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Badge, Button, Card, Empty, ErrorLine, Field, Outcome, PageHead, css as s } from '../../ui';
import { useIpo } from './useIpo';

/**
 * IPO allotment: the table previewed at a ratio before anything moves; one member
 * proposes it, another runs it (never the proposer), and only while the applications are what the
 * table was made from. The decisions are useIpo's.
 */
export function IpoScreen() {
  const ipo = useIpo();
  const { rows, picked, preview: p } = ipo;

  return (
    <>
      <PageHead
        title="IPO allotment"
        subtitle="Preview the table, propose it, and a second member runs it."
      />
      <Outcome error={ipo.error} note={ipo.note} />
      <div className={s.split}>
        <Card title="IPOs with applications" flush>
          {rows.length === 0 ? (
            <Empty>{ipo.loading ? 'Loading…' : 'No IPO has pending applications.'}</Empty>
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
                      <Button small onClick={() => ipo.pick(i.id)}>
                        Preview
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        <Card title={p ? `Allotment table · ${p.symbol}` : 'Allotment table'} flush={!picked}>
          {!picked ? (
            <Empty>
              {rows.length
                ? 'Pick an IPO to preview its table.'
                : 'Nothing to allot until an IPO has applications.'}
            </Empty>
          ) : (
            <div className={s.stack}>
              <Field id="ratio" label="Share of each application allotted (0 to 1, whole lots of 100)">
                <input
                  id="ratio"
                  className={s.input}
                  value={ipo.ratio}
                  onChange={(e) => ipo.setRatio(e.target.value)}
                />
              </Field>
              <ErrorLine error={ipo.previewError} />
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
                    {ipo.canPropose && (
                      <Button
                        busy={ipo.busy === 'propose'}
                        onClick={ipo.propose}
                        disabled={p.lines.length === 0}
                      >
                        Propose at {p.ratio}
                      </Button>
                    )}
                    {ipo.running.offered && (
                      <Button
                        tone="primary"
                        busy={ipo.busy === 'run'}
                        onClick={ipo.run}
                        disabled={ipo.running.blocked}
                        title={ipo.running.mine ? 'You proposed it: another member runs it' : undefined}
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
