import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { PAYOUT_REJECTION_REASONS, type PayoutRow } from '../../shared/backoffice';
import { call } from '../api';
import { cardTail, duration, exactly, HOLD_LABEL, rupees, when } from '../format';
import { useNow, useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { useMe } from '../session';
import { Age, Badge, Button, Card, Dialog, Empty, ErrorLine, Field, PageHead, css as s } from '../ui';

/**
 * Payouts (issue 33 §6): withdrawals in progress, held ones first, each with why it is held and
 * when its card last changed. Pay, release to the payment rail or reject with a reason. Above the
 * threshold a payout is two people's: the first "Pay" asks for a second approval, which another
 * member gives (never the one who asked); the server binds it to the payout as it was.
 */

const REJECT_LABEL: Record<string, string> = {
  cardMismatch: 'Card does not match the customer',
  suspectedFraud: 'Suspected fraud',
  customerRequest: 'The customer asked to cancel',
  other: 'Other (write the reason)',
};

const DAY = 24 * 3600_000;

function Status({ row }: { row: PayoutRow }) {
  if (row.approval?.status === 'awaiting')
    return (
      <Badge tone={row.approval.intact ? 'warn' : 'danger'}>
        {row.approval.intact
          ? `Awaits 2nd approval · ${row.approval.makerName}`
          : 'Changed since asked: void'}
      </Badge>
    );
  if (row.hold) return <Badge tone="warn">Held</Badge>;
  return <Badge>With the payment rail</Badge>;
}

/** One payout as the second member checks it: exactly what the approval is bound to. */
function Detail({ row, now }: { row: PayoutRow; now: number }) {
  const a = row.approval?.status === 'awaiting' ? row.approval : null;
  return (
    <div className={s.below}>
      <Card title={`Withdrawal #${row.id} · ${rupees(row.amount)}`} actions={<Status row={row} />}>
        <div className={s.grid2}>
          <dl className={s.dl}>
            <dt>Customer</dt>
            <dd>
              <Link className={s.mono} to={OPS_PATHS.customer(row.userId)}>
                {row.phone}
              </Link>
            </dd>
            <dt>Amount</dt>
            <dd className={s.strong}>{rupees(row.amount)}</dd>
            <dt>To</dt>
            <dd>
              {row.card.bank}, <span className={s.mono}>{cardTail(row.card.card)}</span>, {row.card.holder},
              IFSC <span className={s.mono}>{row.card.ifsc}</span>
            </dd>
            <dt>Card added</dt>
            <dd>{exactly(row.card.addedAt)}</dd>
            <dt>Card changed</dt>
            <dd>
              {exactly(row.card.changedAt)}{' '}
              {now - row.card.changedAt < DAY && (
                <Badge tone="danger">{duration(now - row.card.changedAt)} ago</Badge>
              )}
            </dd>
          </dl>
          <dl className={s.dl}>
            <dt>Asked</dt>
            <dd>{exactly(row.askedAt)}</dd>
            <dt>Why it waits</dt>
            <dd>{row.hold ? (HOLD_LABEL[row.hold] ?? row.hold) : 'It does not: the payment rail pays it'}</dd>
            <dt>Rule</dt>
            <dd>{row.needsApproval ? 'Two people: one pays, another approves' : 'One person'}</dd>
            {a && (
              <>
                <dt>Paid by</dt>
                <dd>
                  {a.makerName}, {exactly(a.createdAt)}
                </dd>
                <dt>Bound to</dt>
                <dd>
                  {a.intact ? (
                    <Badge tone="ok">This amount, card and customer — unchanged</Badge>
                  ) : (
                    <Badge tone="danger">Changed since it was asked: void</Badge>
                  )}
                </dd>
              </>
            )}
          </dl>
        </div>
      </Card>
    </div>
  );
}

export function Payouts() {
  const me = useMe();
  const list = useOps('payouts', {}, 10_000);
  const now = useNow(5000);
  const [params] = useSearchParams();
  const [picked, setPicked] = useState<number | null>(() => Number(params.get('focus')) || null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<PayoutRow | null>(null);
  const [reason, setReason] = useState<string>('cardMismatch');
  const [text, setText] = useState('');
  const can = (cap: string) => me.caps.includes(cap as never);
  const rows = list.data?.rows ?? [];
  const detail = rows.find((r) => r.id === picked) ?? null;

  async function act(key: string, run: () => Promise<{ ok: boolean; error?: string }>, done: string) {
    setBusy(key);
    setError(null);
    setNote(null);
    const r = await run();
    setBusy(null);
    if (!r.ok) setError(r.error ?? null);
    else setNote(done);
    list.reload();
  }

  async function reject(e: FormEvent) {
    e.preventDefault();
    if (!rejecting) return;
    const id = rejecting.id;
    setRejecting(null);
    await act(
      `reject:${id}`,
      () => call('payoutReject', { id, reason, text: text.trim() || undefined }),
      `Withdrawal ${id} rejected and refunded to the customer.`,
    );
    setText('');
  }

  return (
    <>
      <PageHead
        title="Payouts"
        subtitle={
          list.data
            ? `Above ${rupees(list.data.threshold)} a payout needs a second person's approval.`
            : 'Withdrawals waiting to be paid.'
        }
      />
      <ErrorLine error={list.error ?? error} />
      {note && (
        <p className={`${s.ok} ${s.banner}`} role="status">
          {note}
        </p>
      )}
      <Card title={`In progress · ${rows.length}`} flush>
        {rows.length === 0 ? (
          <Empty>{list.loading ? 'Loading…' : 'No withdrawal is in progress.'}</Empty>
        ) : (
          <div className={s.tableWrap}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th>#</th>
                  <th>Customer</th>
                  <th className={s.num}>Amount</th>
                  <th>To card</th>
                  <th>Card changed</th>
                  <th>Why it waits</th>
                  <th className={s.num}>Waiting</th>
                  <th>Status</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => {
                  const awaiting = r.approval?.status === 'awaiting';
                  const mine = awaiting && r.approval?.maker === `staff:${me.id}`;
                  const recent = now - r.card.changedAt < DAY;
                  return (
                    <tr
                      key={r.id}
                      className={r.id === picked ? s.rowActive : undefined}
                      data-testid={`payout-${r.id}`}
                      onClick={() => setPicked(r.id)}
                    >
                      <td className={s.mono}>{r.id}</td>
                      <td>
                        <Link className={s.mono} to={OPS_PATHS.customer(r.userId)}>
                          {r.phone}
                        </Link>
                      </td>
                      <td className={`${s.num} ${s.strong}`}>
                        {rupees(r.amount)}
                        {r.needsApproval && (
                          <div>
                            <Badge tone="info">2 people</Badge>
                          </div>
                        )}
                      </td>
                      <td>
                        <div className={`${s.strong} ${s.nowrap}`}>{r.card.bank}</div>
                        <div className={`${s.small} ${s.muted}`}>
                          <span className={s.mono}>{cardTail(r.card.card)}</span> · {r.card.holder}
                        </div>
                      </td>
                      <td title={exactly(r.card.changedAt)}>
                        {recent ? (
                          <Badge tone="danger">{duration(now - r.card.changedAt)} ago</Badge>
                        ) : (
                          when(r.card.changedAt)
                        )}
                      </td>
                      <td className={s.small}>
                        {r.hold ? (HOLD_LABEL[r.hold] ?? r.hold) : <span className={s.muted}>—</span>}
                      </td>
                      <td className={s.num}>
                        <Age since={r.askedAt} now={now} target={2 * 3600_000} />
                      </td>
                      <td>
                        <Status row={r} />
                      </td>
                      <td>
                        <div className={s.actions}>
                          {awaiting && can('approve') && (
                            <Button
                              small
                              tone="primary"
                              disabled={mine || !r.approval?.intact}
                              title={
                                mine ? 'You asked for this payout: another member approves it' : undefined
                              }
                              busy={busy === `approve:${r.id}`}
                              onClick={() =>
                                void act(
                                  `approve:${r.id}`,
                                  () => call('payoutApprove', { id: r.id }),
                                  `Withdrawal ${r.id} approved and paid.`,
                                )
                              }
                            >
                              Approve
                            </Button>
                          )}
                          {!awaiting && r.hold && can('pay') && (
                            <Button
                              small
                              tone="primary"
                              busy={busy === `pay:${r.id}`}
                              onClick={() =>
                                void act(
                                  `pay:${r.id}`,
                                  () => call('payoutPay', { id: r.id }),
                                  r.needsApproval
                                    ? `Withdrawal ${r.id} waits for a second approval.`
                                    : `Withdrawal ${r.id} paid.`,
                                )
                              }
                            >
                              Pay
                            </Button>
                          )}
                          {!awaiting && r.hold && !r.needsApproval && can('pay') && (
                            <Button
                              small
                              busy={busy === `release:${r.id}`}
                              onClick={() =>
                                void act(
                                  `release:${r.id}`,
                                  () => call('payoutRelease', { id: r.id }),
                                  `Withdrawal ${r.id} handed to the payment rail.`,
                                )
                              }
                            >
                              Release
                            </Button>
                          )}
                          {can('pay') && (
                            <Button small tone="danger" onClick={() => setRejecting(r)}>
                              Reject
                            </Button>
                          )}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {detail && <Detail row={detail} now={now} />}
      <Dialog
        open={rejecting !== null}
        title={`Reject withdrawal ${rejecting?.id ?? ''}`}
        onClose={() => setRejecting(null)}
      >
        <form className={s.stack} onSubmit={reject}>
          <p className={s.muted}>{rupees(rejecting?.amount)} goes back to the customer's balance at once.</p>
          <Field id="reject-reason" label="Reason">
            <select
              id="reject-reason"
              className={s.select}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            >
              {PAYOUT_REJECTION_REASONS.map((r) => (
                <option key={r} value={r}>
                  {REJECT_LABEL[r]}
                </option>
              ))}
            </select>
          </Field>
          <Field id="reject-text" label={`Note ${reason === 'other' ? '(needed)' : '(optional)'}`}>
            <textarea
              id="reject-text"
              className={s.textarea}
              value={text}
              maxLength={500}
              onChange={(e) => setText(e.target.value)}
            />
          </Field>
          <div className={s.dialogActions}>
            <Button tone="ghost" onClick={() => setRejecting(null)}>
              Cancel
            </Button>
            <Button tone="danger" type="submit" disabled={reason === 'other' && !text.trim()}>
              Reject and refund
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
