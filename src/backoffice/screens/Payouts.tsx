import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PAYOUT_REJECTION_REASONS, type PayoutRow } from '../../shared/backoffice';
import { call, downloadCsv } from '../api';
import { cardTail, rupees } from '../format';
import { useAction, useNow, useOps } from '../hooks';
import { useMe } from '../session';
import { Age, Badge, Button, Card, Dialog, Empty, Field, Icon, Outcome, PageHead, css as s } from '../ui';
import {
  awaits,
  type Confirming,
  ConfirmPayout,
  Customer,
  Detail,
  makerOf,
  REJECT_LABEL,
  reasons,
  Status,
  TARGET,
} from './PayoutParts';

/**
 * Payouts: withdrawals in progress, held ones first, each with every reason
 * it waits (a card changed lately, the customer's 24 h above the threshold). Pay, release to the
 * payment rail or reject with a reason. Above the threshold a payout is two people's: the first
 * "Pay" asks for a second approval, which another member gives (never the one who asked); the
 * server binds it to the payout as it was. Paying and approving each ask a confirmation that says
 * again what leaves: the amount, the payee and the card.
 */

export function Payouts() {
  const me = useMe();
  const list = useOps('payouts', {}, 10_000);
  const now = useNow(5000);
  const [params] = useSearchParams();
  const [picked, setPicked] = useState<number | null>(() => Number(params.get('focus')) || null);
  const action = useAction(list.reload);
  const [exportError, setExportError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [rejecting, setRejecting] = useState<PayoutRow | null>(null);
  const [reason, setReason] = useState<string>('cardMismatch');
  const [text, setText] = useState('');
  const can = (cap: string) => me.caps.includes(cap as never);
  const rows = list.data?.rows ?? [];
  const threshold = list.data?.threshold ?? '0';
  const detail = rows.find((r) => r.id === picked) ?? null;

  function decide({ row, kind }: Confirming) {
    setConfirming(null);
    if (kind === 'approve')
      void action.run(
        `approve:${row.id}`,
        () => call('payoutApprove', { id: row.id }),
        `Withdrawal ${row.id} approved and paid.`,
      );
    else
      void action.run(
        `pay:${row.id}`,
        () => call('payoutPay', { id: row.id }),
        (d) => (d.paid ? `Withdrawal ${row.id} paid.` : `Withdrawal ${row.id} waits for a second approval.`),
      );
  }

  async function reject(e: FormEvent) {
    e.preventDefault();
    if (!rejecting) return;
    const id = rejecting.id;
    setRejecting(null);
    await action.run(
      `reject:${id}`,
      () => call('payoutReject', { id, reason, text: text.trim() || undefined }),
      `Withdrawal ${id} rejected and refunded to the customer.`,
    );
    setText('');
  }

  /** The row's decisions: one that moves money (Approve or Pay), and Reject. */
  function rowActions(r: PayoutRow) {
    const waiting = awaits(r);
    const mine = waiting && r.approval?.maker === `staff:${me.id}`;
    return (
      <div className={s.actions}>
        {waiting && can('approve') && (
          <Button
            small
            tone="approve"
            disabled={mine || !r.approval?.intact}
            title={mine ? 'You asked for this payout: another member approves it' : undefined}
            busy={action.busy === `approve:${r.id}`}
            onClick={(e) => {
              e.stopPropagation();
              setConfirming({ row: r, kind: 'approve' });
            }}
          >
            <Icon name="check" size={15} />
            Approve…
          </Button>
        )}
        {!waiting && r.hold && can('pay') && (
          <Button
            small
            tone="primary"
            busy={action.busy === `pay:${r.id}`}
            onClick={(e) => {
              e.stopPropagation();
              setConfirming({ row: r, kind: 'pay' });
            }}
          >
            Pay…
          </Button>
        )}
        {can('pay') && (
          <Button
            small
            tone="danger"
            onClick={(e) => {
              e.stopPropagation();
              setRejecting(r);
            }}
          >
            Reject…
          </Button>
        )}
      </div>
    );
  }

  return (
    <>
      <PageHead
        title="Payouts"
        subtitle={
          list.data
            ? `When a customer's payouts in 24 h pass ${rupees(threshold)}, a second person approves.`
            : 'Withdrawals waiting to be paid.'
        }
      >
        <Button small onClick={async () => setExportError(await downloadCsv('payoutsCsv', {}, 'payouts'))}>
          Export CSV
        </Button>
      </PageHead>
      <Outcome error={list.error ?? action.error ?? exportError} note={action.note} />
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
                  <th>Status and why it waits</th>
                  <th className={s.num}>Waiting</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr
                    key={r.id}
                    className={r.id === picked ? s.rowActive : undefined}
                    data-testid={`payout-${r.id}`}
                    onClick={() => setPicked(r.id)}
                  >
                    <td className={s.mono}>{r.id}</td>
                    <td>
                      <Customer row={r} />
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
                      <div className={s.nowrap}>
                        <span className={s.strong}>{r.card.bank}</span>{' '}
                        <span className={`${s.mono} ${s.small}`}>{cardTail(r.card.card)}</span>
                      </div>
                      <div className={`${s.small} ${s.muted}`}>{r.card.holder}</div>
                    </td>
                    <td>
                      <Status row={r} />
                      {awaits(r) && (
                        <div className={`${s.small} ${s.muted}`}>Requested by {makerOf(r.approval!)}</div>
                      )}
                      {reasons(r, threshold, now).map((w) => (
                        <div key={w} className={`${s.small} ${s.muted}`}>
                          {w}
                        </div>
                      ))}
                    </td>
                    <td className={s.num}>
                      <Age since={r.askedAt} now={now} target={TARGET} />
                    </td>
                    <td>{rowActions(r)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      {detail && (
        <Detail
          row={detail}
          threshold={threshold}
          now={now}
          actions={
            <>
              <Status row={detail} />
              {!awaits(detail) && detail.hold && !detail.needsApproval && can('pay') && (
                <Button
                  small
                  busy={action.busy === `release:${detail.id}`}
                  title="The payment rail pays it at its next run"
                  onClick={() =>
                    void action.run(
                      `release:${detail.id}`,
                      () => call('payoutRelease', { id: detail.id }),
                      `Withdrawal ${detail.id} handed to the payment rail.`,
                    )
                  }
                >
                  Release to the rail
                </Button>
              )}
            </>
          }
        />
      )}
      <ConfirmPayout
        confirming={confirming}
        threshold={threshold}
        now={now}
        onCancel={() => setConfirming(null)}
        onConfirm={decide}
      />
      <Dialog
        open={rejecting !== null}
        title={`Reject withdrawal ${rejecting?.id ?? ''}`}
        onClose={() => setRejecting(null)}
      >
        <form className={s.stack} onSubmit={reject}>
          <p className={s.muted}>
            {rupees(rejecting?.amount)} goes back to{' '}
            {rejecting ? (rejecting.customer.name ?? rejecting.phone) : ''}
            's balance at once.
          </p>
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
