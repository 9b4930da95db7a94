import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { PayoutRow } from '../../../shared/backoffice';
import { DecisionDialog } from '../../DecisionDialog';
import { cardTail, duration, exactly, HOLD_LABEL, makerOf, nameSource, rupees, when } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Badge, Card, css as s } from '../../ui';

/**
 * The parts of the Payouts screen (PayoutsScreen.tsx): a payout's status and every reason it waits, the
 * customer cell, the detail a second member checks, and the confirmation before money leaves.
 */

export const REJECT_LABEL: Record<string, string> = {
  cardMismatch: 'Card does not match the customer',
  suspectedFraud: 'Suspected fraud',
  customerRequest: 'The customer asked to cancel',
  other: 'Other (write the reason)',
};

const DAY = 24 * 3600_000;
export const TARGET = 2 * 3600_000;

export const awaits = (r: PayoutRow) => r.approval?.status === 'awaiting';

export function Status({ row }: { row: PayoutRow }) {
  if (awaits(row))
    return (
      <Badge tone={row.approval!.intact ? 'info' : 'danger'}>
        {row.approval!.intact ? 'Awaits 2nd approval' : 'Changed since asked: void'}
      </Badge>
    );
  if (row.hold) return <Badge tone="warn">Held</Badge>;
  return <Badge>With the payment rail</Badge>;
}

/** Every reason a payout waits for a person, in words. */
export function reasons(r: PayoutRow, threshold: string, now: number): string[] {
  const out: string[] = [];
  if (now - r.card.changedAt < DAY) out.push(`Card changed ${duration(now - r.card.changedAt)} ago`);
  else if (r.hold === 'wallet.hold.newCard') out.push(HOLD_LABEL[r.hold]!);
  // A second factor changed or a password reset lately: its own hold, said as such.
  if (r.hold && r.hold !== 'wallet.hold.newCard' && r.hold !== 'wallet.hold.review')
    out.push(HOLD_LABEL[r.hold] ?? r.hold);
  if (r.needsApproval) out.push(`${rupees(r.dayTotal)} in 24 h, above ${rupees(threshold)}: two people`);
  if (out.length === 0 && r.hold) out.push(HOLD_LABEL[r.hold] ?? r.hold);
  return out;
}

export function Customer({ row }: { row: PayoutRow }) {
  return (
    <>
      <Link className={s.strong} to={OPS_PATHS.customer(row.userId)}>
        {row.customer.name ?? row.phone}
      </Link>
      {row.customer.name && <div className={`${s.small} ${s.muted} ${s.mono}`}>{row.phone}</div>}
    </>
  );
}

/** One payout as the second member checks it: exactly what the approval is bound to. */
export function Detail({
  row,
  threshold,
  now,
  actions,
}: {
  row: PayoutRow;
  threshold: string;
  now: number;
  actions: ReactNode;
}) {
  const a = awaits(row) ? row.approval : null;
  return (
    <div className={s.below}>
      <Card title={`Withdrawal #${row.id} · ${rupees(row.amount)}`} actions={actions}>
        <div className={s.grid2}>
          <dl className={s.dl}>
            <dt>Customer</dt>
            <dd>
              <Customer row={row} />
              <div className={`${s.small} ${s.muted}`}>{nameSource(row.customer)}</div>
            </dd>
            <dt>Amount</dt>
            <dd className={s.strong}>{rupees(row.amount)}</dd>
            <dt>To</dt>
            <dd>
              {row.card.holder}, {row.card.bank} <span className={s.mono}>{cardTail(row.card.card)}</span>,
              IFSC <span className={s.mono}>{row.card.ifsc}</span>
            </dd>
            <dt>Card added</dt>
            <dd>{exactly(row.card.addedAt)}</dd>
            <dt>Card changed</dt>
            <dd>
              {exactly(row.card.changedAt)}{' '}
              {now - row.card.changedAt < DAY && (
                <Badge tone="warn">{duration(now - row.card.changedAt)} ago</Badge>
              )}
            </dd>
          </dl>
          <dl className={s.dl}>
            <dt>Asked</dt>
            <dd>{exactly(row.askedAt)}</dd>
            <dt>Why it waits</dt>
            <dd>
              {reasons(row, threshold, now).map((w) => (
                <div key={w}>{w}</div>
              ))}
              {!row.hold && !a && 'It does not: the payment rail pays it'}
            </dd>
            <dt>Rule</dt>
            <dd>{row.needsApproval ? 'Two people: one asks, another approves' : 'One person'}</dd>
            {a && (
              <>
                <dt>Requested by</dt>
                <dd>
                  {makerOf(a)}, {exactly(a.createdAt)}
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

export type Confirming = { row: PayoutRow; kind: 'pay' | 'approve' };

/** The confirmation before money leaves: the amount, the payee and the card, said again. */
export function ConfirmPayout({
  confirming,
  threshold,
  now,
  onCancel,
  onConfirm,
}: {
  confirming: Confirming | null;
  threshold: string;
  now: number;
  onCancel: () => void;
  onConfirm: (c: Confirming) => void;
}) {
  const r = confirming?.row;
  const approve = confirming?.kind === 'approve';
  const asks = !approve && r?.needsApproval;
  return (
    <DecisionDialog
      open={confirming !== null}
      title={
        approve
          ? `Approve and pay withdrawal #${r?.id ?? ''}`
          : asks
            ? `Ask for a second approval of #${r?.id ?? ''}`
            : `Pay withdrawal #${r?.id ?? ''}`
      }
      onClose={onCancel}
      amount={rupees(r?.amount)}
      decide={{
        tone: approve ? 'approve' : 'primary',
        label: approve
          ? `Approve and pay ${rupees(r?.amount)}`
          : asks
            ? 'Ask for the second approval'
            : `Pay ${rupees(r?.amount)}`,
      }}
      onDecide={() => confirming && onConfirm(confirming)}
    >
      {r && (
        <>
          <dl className={s.dl}>
            <dt>Payee</dt>
            <dd className={s.strong}>{r.card.holder}</dd>
            <dt>Card</dt>
            <dd>
              {r.card.bank} <span className={s.mono}>{cardTail(r.card.card)}</span> · IFSC{' '}
              <span className={s.mono}>{r.card.ifsc}</span>
            </dd>
            <dt>Customer</dt>
            <dd>
              {r.customer.name ?? r.phone}{' '}
              {r.customer.name && <span className={`${s.mono} ${s.muted}`}>{r.phone}</span>}
            </dd>
            {approve && r.approval && (
              <>
                <dt>Requested by</dt>
                <dd>
                  {makerOf(r.approval)}, {when(r.approval.createdAt)}
                </dd>
              </>
            )}
          </dl>
          {now - r.card.changedAt < DAY && (
            <p className={s.notice}>
              The card was added or changed {duration(now - r.card.changedAt)} ago: check the payee is the
              customer.
            </p>
          )}
          <p className={s.muted}>
            {approve
              ? 'Approving pays it now. It cannot be undone.'
              : asks
                ? `${rupees(r.dayTotal)} in 24 h is above ${rupees(threshold)}: it waits until another member approves it.`
                : 'It is marked paid now. It cannot be undone.'}
          </p>
        </>
      )}
    </DecisionDialog>
  );
}
