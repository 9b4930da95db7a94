import { Link } from 'react-router-dom';
import type { CustomerView } from '../../../shared/backoffice';
import { formatQuantity } from '../../../shared/format';
import { IPO_STATUS, KYC_STATUS, STOCK_STATUS, WITHDRAW_STATUS } from '../../../shared/status';
import {
  cardTail,
  exactly,
  HOLD_LABEL,
  KYC_LABEL,
  LOAN_LABEL,
  nameSource,
  reasonLabel,
  rupees,
  stamp,
  when,
} from '../../format';
import { OPS_PATHS } from '../../paths';
import { Badge, Button, Card, Empty, ErrorLine, PageHead, css as s } from '../../ui';
import { REASONS } from '../KycCase/KycParts';
import { AccountControls } from './AccountControls';
import { useCustomer } from './useCustomer';

/**
 * One customer: headed by their name, what they own as their app shows it
 * (total assets, available, reserved by line, holdings at market, loans due), identity and its
 * history, cards with their change times, the ledger as a statement (reasons in words, debits and
 * credits apart, each staff-made posting with its audit entry), holdings, orders, loans and IPO
 * applications, withdrawals and approvals waiting, the chat and the staff's notes. Read-only but for
 * notes and the account's controls (AccountControls: freeze, factor reset, end sessions); every role
 * may open it.
 */

const ORDER_STATUS: Record<number, string> = {
  [STOCK_STATUS.pending]: 'Pending',
  [STOCK_STATUS.success]: 'Filled',
  [STOCK_STATUS.cancelled]: 'Cancelled',
  [STOCK_STATUS.expired]: 'Expired',
  [STOCK_STATUS.failed]: 'Failed',
};

function KycBadge({ status }: { status: number }) {
  return (
    <Badge tone={status === KYC_STATUS.approved ? 'ok' : status === KYC_STATUS.rejected ? 'danger' : 'warn'}>
      {KYC_LABEL[status]}
    </Badge>
  );
}

/** The hero as the customer's app shows it: each line, and the total that is their sum. */
function Assets({ c }: { c: CustomerView }) {
  const a = c.assets;
  return (
    <section className={`${s.tiles} ${s.tiles5}`} aria-label="Assets">
      <div className={s.tile}>
        <span className={s.tileLabel}>Total assets</span>
        <span className={`${s.tileCount} ${s.tileMoney}`}>{rupees(a.total)}</span>
        <span className={s.tileMeta}>As in the customer's app</span>
      </div>
      <div className={s.tile}>
        <span className={s.tileLabel}>Available</span>
        <span className={`${s.tileCount} ${s.tileMoney}`}>{rupees(a.available)}</span>
        <span className={s.tileMeta}>Can buy or withdraw now</span>
      </div>
      <div className={s.tile}>
        <span className={s.tileLabel}>Reserved</span>
        <span className={`${s.tileCount} ${s.tileMoney}`}>{rupees(a.reserved.total)}</span>
        <span className={s.tileMeta}>
          Orders {rupees(a.reserved.orders)} · IPO {rupees(a.reserved.ipo)}
        </span>
        <span className={s.tileMeta}>Withdrawals {rupees(a.reserved.withdrawals)}</span>
      </div>
      <div className={s.tile}>
        <span className={s.tileLabel}>Holdings at market</span>
        <span className={`${s.tileCount} ${s.tileMoney}`}>{rupees(a.holdings)}</span>
        <span className={s.tileMeta}>
          {c.holdings.length} {c.holdings.length === 1 ? 'holding' : 'holdings'} · funds {rupees(a.funds)}
        </span>
      </div>
      <div className={s.tile}>
        <span className={s.tileLabel}>Loans due</span>
        <span className={`${s.tileCount} ${s.tileMoney}`}>{rupees(a.loans)}</span>
        <span className={s.tileMeta}>Credit score {c.customer.creditScore}</span>
      </div>
    </section>
  );
}

function Ledger({ c }: { c: CustomerView }) {
  return (
    <Card title="Ledger (newest first)" flush>
      {c.ledger.length === 0 ? (
        <Empty>No posting.</Empty>
      ) : (
        <div className={s.tableWrap}>
          <table className={s.table}>
            <thead>
              <tr>
                <th>When</th>
                <th>Reason</th>
                <th className={s.num}>Debit</th>
                <th className={s.num}>Credit</th>
                <th className={s.num}>Balance after</th>
                <th>Staff action</th>
              </tr>
            </thead>
            <tbody>
              {c.ledger.map((l) => {
                const debit = l.amount.startsWith('-');
                return (
                  <tr key={l.id}>
                    <td className={`${s.small} ${s.nowrap}`}>{when(l.at)}</td>
                    <td title={l.reason}>{reasonLabel(l.reason)}</td>
                    <td className={`${s.num} ${s.debit}`}>{debit ? rupees(l.amount) : ''}</td>
                    <td className={`${s.num} ${s.credit}`}>{debit ? '' : `+${rupees(l.amount)}`}</td>
                    <td className={s.num}>{rupees(l.balance)}</td>
                    <td>
                      {l.auditSeq ? (
                        <Link to={OPS_PATHS.auditAt(l.auditSeq)}>Audit #{l.auditSeq}</Link>
                      ) : (
                        <span className={s.muted}>—</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

function Holdings({ c }: { c: CustomerView }) {
  return (
    <Card title={`Holdings · ${c.holdings.length}`} flush>
      {c.holdings.length === 0 ? (
        <Empty>Holds nothing.</Empty>
      ) : (
        <table className={s.table}>
          <thead>
            <tr>
              <th>Instrument</th>
              <th className={s.num}>Quantity</th>
              <th className={s.num}>Invested</th>
              <th className={s.num}>Value</th>
            </tr>
          </thead>
          <tbody>
            {c.holdings.map((h) => (
              <tr key={`${h.symbol}:${h.lockedUntil ?? ''}:${h.invested}`}>
                <td>
                  <span className={s.strong}>{h.symbol}</span>{' '}
                  {h.lockedUntil !== null && <Badge tone="warn">Locked until {when(h.lockedUntil)}</Badge>}
                  <div className={`${s.small} ${s.muted}`}>{h.name}</div>
                </td>
                <td className={s.num}>{formatQuantity(h.qty)}</td>
                <td className={s.num}>{rupees(h.invested)}</td>
                <td className={`${s.num} ${s.strong}`}>{rupees(h.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

export function CustomerScreen() {
  const { id, view, note, setNote, addNote, noteError, exportError, exportStatement } = useCustomer();
  const c = view.data;

  if (!c) return <>{view.error ? <ErrorLine error={view.error} /> : <p className={s.muted}>Loading…</p>}</>;
  const { customer } = c;
  return (
    <>
      <PageHead
        title={customer.name ?? customer.phone}
        subtitle={
          <>
            {nameSource(customer)} · <span className={s.mono}>{customer.phone}</span> · account{' '}
            <span className={s.mono}>{customer.no}</span> · since {when(customer.createdAt)}
          </>
        }
      >
        <KycBadge status={customer.kycStatus} />
        <Link className={`${s.button} ${s.smallButton}`} to={OPS_PATHS.chat(id)}>
          Chat
        </Link>
        <Button small onClick={exportStatement}>
          Statement CSV
        </Button>
        {customer.kycStatus === KYC_STATUS.underReview && (
          <Link className={`${s.button} ${s.smallButton}`} to={OPS_PATHS.kyc(id)}>
            Review real-name
          </Link>
        )}
      </PageHead>
      <ErrorLine error={exportError} />
      <Assets c={c} />
      <div className={s.grid2}>
        <div className={s.stack}>
          <AccountControls c={c} onDone={view.reload} />
          <Card title="Identity">
            {c.identity ? (
              <dl className={s.dl}>
                <dt>Status</dt>
                <dd>
                  <KycBadge status={c.identity.status} />
                </dd>
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
              <p className={s.muted}>Real-name verification not submitted.</p>
            )}
          </Card>
          <Card title="Bank cards" flush>
            {c.cards.length === 0 ? (
              <Empty>No card.</Empty>
            ) : (
              <table className={s.table}>
                <thead>
                  <tr>
                    <th>Bank and card</th>
                    <th>Added</th>
                    <th>Changed</th>
                  </tr>
                </thead>
                <tbody>
                  {c.cards.map((card) => (
                    <tr key={card.id}>
                      <td>
                        {card.bank} <span className={s.mono}>{cardTail(card.card)}</span>
                        <div className={`${s.small} ${s.muted}`}>
                          {card.holder} · IFSC <span className={s.mono}>{card.ifsc}</span>
                        </div>
                      </td>
                      <td className={`${s.small} ${s.nowrap}`}>{when(card.addedAt)}</td>
                      <td className={`${s.small} ${s.nowrap}`}>{when(card.changedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
        </div>
        <div className={s.stack}>
          <Holdings c={c} />
          <Card title="Withdrawals" flush>
            {c.withdrawals.length === 0 ? (
              <Empty>None.</Empty>
            ) : (
              <table className={s.table}>
                <tbody>
                  {c.withdrawals.map((w) => (
                    <tr key={w.id}>
                      <td className={s.mono}>#{w.id}</td>
                      <td className={`${s.small} ${s.nowrap}`}>{when(w.askedAt)}</td>
                      <td className={s.num}>{rupees(w.amount)}</td>
                      <td>
                        <Badge
                          tone={
                            w.status === WITHDRAW_STATUS.paid
                              ? 'ok'
                              : w.status === WITHDRAW_STATUS.failed
                                ? 'danger'
                                : w.hold && w.approval?.status !== 'awaiting'
                                  ? 'warn'
                                  : 'info'
                          }
                        >
                          {w.status === WITHDRAW_STATUS.paid
                            ? 'Paid'
                            : w.status === WITHDRAW_STATUS.failed
                              ? 'Rejected, refunded'
                              : w.approval?.status === 'awaiting'
                                ? 'Awaits 2nd approval'
                                : w.hold
                                  ? 'Held'
                                  : 'In progress'}
                        </Badge>
                        {w.status === WITHDRAW_STATUS.inProgress && w.hold && (
                          <div className={`${s.small} ${s.muted}`}>{HOLD_LABEL[w.hold] ?? w.hold}</div>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
        </div>
      </div>
      <div className={s.below}>
        <Ledger c={c} />
      </div>
      <div className={`${s.grid2} ${s.below}`}>
        <div className={s.stack}>
          <Card title="Orders" flush>
            {c.orders.length === 0 ? (
              <Empty>No order.</Empty>
            ) : (
              <table className={s.table}>
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Order</th>
                    <th className={s.num}>Quantity</th>
                    <th className={s.num}>Value</th>
                  </tr>
                </thead>
                <tbody>
                  {c.orders.slice(0, 12).map((o) => (
                    <tr key={o.id}>
                      <td className={`${s.small} ${s.nowrap}`}>{when(o.at)}</td>
                      <td>
                        {o.state === 'sell' ? 'Sell' : 'Buy'} <span className={s.strong}>{o.symbol}</span>
                        <div className={`${s.small} ${s.muted}`}>{ORDER_STATUS[o.status] ?? o.status}</div>
                      </td>
                      <td className={s.num}>{formatQuantity(o.count)}</td>
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
                      <td className={`${s.small} ${s.nowrap}`}>{when(l.at)}</td>
                      <td className={s.num}>{rupees(l.amount)}</td>
                      <td>{LOAN_LABEL[l.state]}</td>
                    </tr>
                  ))}
                  {c.ipoApplications.map((a) => (
                    <tr key={`i${a.id}`}>
                      <td>IPO {a.symbol}</td>
                      <td className={`${s.small} ${s.nowrap}`}>{when(a.at)}</td>
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
        </div>
        <div className={s.stack}>
          <Card title="Chat (latest)">
            {c.chat.length === 0 ? (
              <p className={s.muted}>No message.</p>
            ) : (
              c.chat.slice(-5).map((m) => (
                <p key={m.id} className={`${s.small} ${s.line}`}>
                  <span className={s.strong}>
                    {m.automatic ? 'Automatic welcome' : m.sender === 'agent' ? 'Agent' : 'Customer'}
                  </span>{' '}
                  <span className={s.muted}>{stamp(m.at)}</span>: {m.body}
                </p>
              ))
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
              <ErrorLine error={noteError} />
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
      </div>
    </>
  );
}
