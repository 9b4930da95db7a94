import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { IPO_STATUS, KYC_STATUS, WITHDRAW_STATUS } from '../../shared/status';
import { call } from '../api';
import { exactly, HOLD_LABEL, KYC_LABEL, LOAN_LABEL, rupees, when } from '../format';
import { useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { Badge, Button, Card, Empty, ErrorLine, PageHead, css as s } from '../ui';
import { REASONS } from './Kyc';

/**
 * One customer (issue 33 §8): identity and its history, cards with their change times, balance
 * and ledger (each staff-made posting with its audit entry), orders, holdings, loans, IPO
 * applications, withdrawals and approvals waiting, the chat and the staff's notes. Read-only but
 * for notes; every role may open it.
 */

export function Customer() {
  const id = Number(useParams().id);
  const view = useOps('customer', { id });
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const c = view.data;

  async function addNote(e: FormEvent) {
    e.preventDefault();
    const r = await call('noteAdd', { userId: id, body: note });
    if (!r.ok) return setError(r.error);
    setNote('');
    setError(null);
    view.reload();
  }

  if (!c) return <>{view.error ? <ErrorLine error={view.error} /> : <p className={s.muted}>Loading…</p>}</>;
  const { customer } = c;
  return (
    <>
      <PageHead
        title={customer.name ?? 'Customer without a verified name'}
        subtitle={
          <>
            <span className={s.mono}>{customer.phone}</span> · account{' '}
            <span className={s.mono}>{customer.no}</span> · since {when(customer.createdAt)}
          </>
        }
      >
        <Badge
          tone={
            customer.kycStatus === KYC_STATUS.approved
              ? 'ok'
              : customer.kycStatus === KYC_STATUS.rejected
                ? 'danger'
                : 'warn'
          }
        >
          {KYC_LABEL[customer.kycStatus]}
        </Badge>
        <Link className={`${s.button} ${s.smallButton}`} to={OPS_PATHS.chat(id)}>
          Chat
        </Link>
        {customer.kycStatus === KYC_STATUS.underReview && (
          <Link className={`${s.button} ${s.smallButton}`} to={OPS_PATHS.kyc(id)}>
            Review real-name
          </Link>
        )}
      </PageHead>
      <div className={`${s.tiles} ${s.tiles4}`}>
        <div className={s.tile}>
          <span className={s.tileLabel}>Balance</span>
          <span className={`${s.tileCount} ${s.tileMoney}`}>{rupees(customer.balance)}</span>
        </div>
        <div className={s.tile}>
          <span className={s.tileLabel}>Loan due</span>
          <span className={`${s.tileCount} ${s.tileMoney}`}>{rupees(customer.loan)}</span>
          <span className={s.tileMeta}>Credit score {customer.creditScore}</span>
        </div>
        <div className={s.tile}>
          <span className={s.tileLabel}>Holdings</span>
          <span className={`${s.tileCount} ${s.tileMoney}`}>{c.holdings.length}</span>
        </div>
        <div className={s.tile}>
          <span className={s.tileLabel}>Waiting approvals</span>
          <span className={`${s.tileCount} ${s.tileMoney}`}>{c.pending.length}</span>
        </div>
      </div>
      <div className={s.grid2}>
        <div className={s.stack}>
          <Card title="Identity">
            {c.identity ? (
              <dl className={s.dl}>
                <dt>Status</dt>
                <dd>{KYC_LABEL[c.identity.status]}</dd>
                <dt>Name</dt>
                <dd>{c.identity.realName}</dd>
                <dt>ID number</dt>
                <dd className={s.mono}>{c.identity.idNumber}</dd>
                {c.identity.reason && (
                  <>
                    <dt>Rejected for</dt>
                    <dd>
                      {REASONS[c.identity.reason as keyof typeof REASONS]?.label ?? c.identity.reason}
                      {c.identity.note && <span className={s.muted}> · “{c.identity.note}”</span>}
                    </dd>
                  </>
                )}
                <dt>History</dt>
                <dd>
                  {c.identityHistory.length === 0
                    ? 'No decision yet'
                    : c.identityHistory.map((h) => (
                        <div key={h.seq} className={s.small}>
                          {h.action.replace('kyc:', '')} by {h.actorName}, {exactly(h.at)}
                        </div>
                      ))}
                </dd>
              </dl>
            ) : (
              <p className={s.muted}>Not submitted.</p>
            )}
          </Card>
          <Card title="Bank cards" flush>
            {c.cards.length === 0 ? (
              <Empty>No card.</Empty>
            ) : (
              <table className={s.table}>
                <thead>
                  <tr>
                    <th>Bank</th>
                    <th>Card</th>
                    <th>Added</th>
                    <th>Changed</th>
                  </tr>
                </thead>
                <tbody>
                  {c.cards.map((card) => (
                    <tr key={card.id}>
                      <td>{card.bank}</td>
                      <td className={s.mono}>
                        {card.card}
                        <div className={`${s.small} ${s.muted}`}>{card.holder}</div>
                      </td>
                      <td className={s.small}>{when(card.addedAt)}</td>
                      <td className={s.small}>{when(card.changedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card title="Withdrawals" flush>
            {c.withdrawals.length === 0 ? (
              <Empty>None.</Empty>
            ) : (
              <table className={s.table}>
                <tbody>
                  {c.withdrawals.map((w) => (
                    <tr key={w.id}>
                      <td className={s.mono}>#{w.id}</td>
                      <td className={s.num}>{rupees(w.amount)}</td>
                      <td>
                        <Badge
                          tone={
                            w.status === WITHDRAW_STATUS.paid
                              ? 'ok'
                              : w.status === WITHDRAW_STATUS.failed
                                ? 'danger'
                                : 'warn'
                          }
                        >
                          {w.status === WITHDRAW_STATUS.paid
                            ? 'Paid'
                            : w.status === WITHDRAW_STATUS.failed
                              ? 'Rejected'
                              : w.approval?.status === 'awaiting'
                                ? 'Awaits 2nd approval'
                                : w.hold
                                  ? 'Held'
                                  : 'In progress'}
                        </Badge>
                      </td>
                      <td className={`${s.small} ${s.muted}`}>
                        {w.hold ? HOLD_LABEL[w.hold] : when(w.askedAt)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card title="Staff notes">
            <form className={`${s.stack} ${s.tight}`} onSubmit={addNote}>
              <label htmlFor="note" className="visually-hidden">
                New note
              </label>
              <textarea
                id="note"
                className={s.textarea}
                placeholder="A note for the team (customers never see notes)"
                value={note}
                onChange={(e) => setNote(e.target.value)}
              />
              <ErrorLine error={error} />
              <div>
                <Button type="submit" small disabled={!note.trim()}>
                  Add note
                </Button>
              </div>
            </form>
            {c.notes.map((n) => (
              <p key={n.id} className={s.note}>
                {n.body}
                <br />
                <span className={`${s.small} ${s.muted}`}>
                  {n.by}, {exactly(n.at)}
                </span>
              </p>
            ))}
          </Card>
        </div>
        <div className={s.stack}>
          <Card title="Ledger (newest first)" flush>
            {c.ledger.length === 0 ? (
              <Empty>No posting.</Empty>
            ) : (
              <table className={s.table}>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Reason</th>
                    <th className={s.num}>Amount</th>
                    <th className={s.num}>Balance</th>
                    <th>Staff action</th>
                  </tr>
                </thead>
                <tbody>
                  {c.ledger.map((l) => (
                    <tr key={l.id}>
                      <td className={s.small}>{when(l.at)}</td>
                      <td>{l.reason}</td>
                      <td className={s.num}>{rupees(l.amount)}</td>
                      <td className={s.num}>{rupees(l.balance)}</td>
                      <td>
                        {l.auditSeq ? (
                          <Link to={OPS_PATHS.auditAt(l.auditSeq)}>#{l.auditSeq}</Link>
                        ) : (
                          <span className={s.muted}>—</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card title="Orders" flush>
            {c.orders.length === 0 ? (
              <Empty>No order.</Empty>
            ) : (
              <table className={s.table}>
                <tbody>
                  {c.orders.slice(0, 12).map((o) => (
                    <tr key={o.id}>
                      <td className={s.small}>{when(o.at)}</td>
                      <td>
                        {o.state} {o.symbol}
                      </td>
                      <td className={s.num}>{o.count}</td>
                      <td className={s.num}>{rupees(o.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card title="Loans and IPO applications" flush>
            {c.loans.length + c.ipoApplications.length === 0 ? (
              <Empty>None.</Empty>
            ) : (
              <table className={s.table}>
                <tbody>
                  {c.loans.map((l) => (
                    <tr key={`l${l.id}`}>
                      <td>Loan #{l.id}</td>
                      <td className={s.num}>{rupees(l.amount)}</td>
                      <td>{LOAN_LABEL[l.state]}</td>
                    </tr>
                  ))}
                  {c.ipoApplications.map((a) => (
                    <tr key={`i${a.id}`}>
                      <td>IPO {a.symbol}</td>
                      <td className={s.num}>{rupees(a.amount)}</td>
                      <td>
                        {a.status === IPO_STATUS.pending
                          ? 'Pending'
                          : a.status === IPO_STATUS.allotted
                            ? 'Allotted'
                            : 'Refunded'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card title="Chat (latest)">
            {c.chat.length === 0 ? (
              <p className={s.muted}>No message.</p>
            ) : (
              c.chat.slice(-5).map((m) => (
                <p key={m.id} className={`${s.small} ${s.line}`}>
                  <span className={s.strong}>{m.sender === 'agent' ? 'Agent' : 'Customer'}:</span> {m.body}
                </p>
              ))
            )}
          </Card>
        </div>
      </div>
    </>
  );
}
