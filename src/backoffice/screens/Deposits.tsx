import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { DepositRow } from '../../shared/backoffice';
import { call } from '../api';
import { makerOf, rupees, when } from '../format';
import { useAction, useNow, useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { useMe } from '../session';
import { Age, Badge, Button, Card, Dialog, Empty, Field, Icon, Outcome, PageHead, css as s } from '../ui';

/**
 * Deposits: recharges waiting for their transfer to be seen on the bank statement, oldest first,
 * each with the bank reference (UTR) the customer gave. Confirm credits the customer; reject says
 * why, and the customer reads it in their inbox. Above the threshold a confirmation is two
 * people's: the first "Confirm" asks, another member approves (never the one who asked). Each asks
 * a confirmation that says again what is credited: the amount, the customer and the reference.
 */

const TARGET = 60 * 60_000;

type Confirming = { row: DepositRow; kind: 'confirm' | 'approve' };

const awaits = (r: DepositRow) => r.approval?.status === 'awaiting';

function Reference({ row }: { row: DepositRow }) {
  return row.reference ? (
    <span className={s.mono}>{row.reference}</span>
  ) : (
    <span className={s.muted}>None given</span>
  );
}

function ConfirmDeposit({
  confirming,
  threshold,
  onCancel,
  onConfirm,
}: {
  confirming: Confirming | null;
  threshold: string;
  onCancel: () => void;
  onConfirm: (c: Confirming) => void;
}) {
  const r = confirming?.row;
  const approve = confirming?.kind === 'approve';
  const asks = !approve && r?.needsApproval;
  const title = approve
    ? `Approve and credit deposit #${r?.id ?? ''}`
    : asks
      ? `Ask for a second approval of #${r?.id ?? ''}`
      : `Confirm deposit #${r?.id ?? ''}`;
  return (
    <Dialog open={confirming !== null} title={title} onClose={onCancel}>
      {r && (
        <div className={s.stack}>
          <p className={s.confirmAmount} data-testid="confirm-amount">
            {rupees(r.amount)}
          </p>
          <dl className={s.dl}>
            <dt>Customer</dt>
            <dd>
              <span className={s.strong}>{r.customer.name ?? r.phone}</span>{' '}
              {r.customer.name && <span className={`${s.mono} ${s.muted}`}>{r.phone}</span>}
            </dd>
            <dt>Bank reference</dt>
            <dd>
              <Reference row={r} />
            </dd>
            <dt>Asked</dt>
            <dd>{when(r.askedAt)}</dd>
            {approve && r.approval && (
              <>
                <dt>Confirmed by</dt>
                <dd>
                  {makerOf(r.approval)}, {when(r.approval.createdAt)}
                </dd>
              </>
            )}
          </dl>
          <p className={s.muted}>
            {approve
              ? 'Approving credits it to the customer now. It cannot be undone.'
              : asks
                ? `Above ${rupees(threshold)}: it is credited when another member approves it.`
                : 'Only confirm a transfer you have found on the bank statement. It is credited now and cannot be undone.'}
          </p>
          <div className={s.dialogActions}>
            <Button tone="ghost" onClick={onCancel}>
              Cancel
            </Button>
            <Button tone={approve ? 'approve' : 'primary'} onClick={() => onConfirm(confirming!)}>
              {approve
                ? `Approve and credit ${rupees(r.amount)}`
                : asks
                  ? 'Ask for the second approval'
                  : `Credit ${rupees(r.amount)}`}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

export function Deposits() {
  const me = useMe();
  const list = useOps('deposits', {}, 10_000);
  const now = useNow(5000);
  const [params] = useSearchParams();
  const picked = Number(params.get('focus')) || null;
  const action = useAction(list.reload);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [rejecting, setRejecting] = useState<DepositRow | null>(null);
  const [text, setText] = useState('');
  const can = (cap: string) => me.caps.includes(cap as never);
  const rows = list.data?.rows ?? [];
  const threshold = list.data?.threshold ?? '0';

  function decide({ row, kind }: Confirming) {
    setConfirming(null);
    if (kind === 'approve')
      void action.run(
        `approve:${row.id}`,
        () => call('depositApprove', { id: row.id }),
        `Deposit ${row.id} approved and credited.`,
      );
    else
      void action.run(
        `confirm:${row.id}`,
        () => call('depositConfirm', { id: row.id }),
        (d) =>
          d.credited ? `Deposit ${row.id} credited.` : `Deposit ${row.id} waits for a second approval.`,
      );
  }

  async function reject(e: FormEvent) {
    e.preventDefault();
    if (!rejecting) return;
    const id = rejecting.id;
    setRejecting(null);
    const ok = await action.run(
      `reject:${id}`,
      () => call('depositReject', { id, text: text.trim() }),
      `Deposit ${id} rejected; the customer was told why.`,
    );
    if (ok) setText('');
  }

  function rowActions(r: DepositRow) {
    const waiting = awaits(r);
    const mine = waiting && r.approval?.maker === `staff:${me.id}`;
    return (
      <div className={s.actions}>
        {waiting && can('approve') && (
          <Button
            small
            tone="approve"
            disabled={mine || !r.approval?.intact}
            title={mine ? 'You confirmed this deposit: another member approves it' : undefined}
            busy={action.busy === `approve:${r.id}`}
            onClick={() => setConfirming({ row: r, kind: 'approve' })}
          >
            <Icon name="check" size={15} />
            Approve…
          </Button>
        )}
        {!waiting && can('pay') && (
          <Button
            small
            tone="primary"
            busy={action.busy === `confirm:${r.id}`}
            onClick={() => setConfirming({ row: r, kind: 'confirm' })}
          >
            Confirm…
          </Button>
        )}
        {can('pay') && (
          <Button small tone="danger" onClick={() => setRejecting(r)}>
            Reject…
          </Button>
        )}
      </div>
    );
  }

  return (
    <>
      <PageHead
        title="Deposits"
        subtitle={
          list.data
            ? `Recharges waiting for their transfer. Above ${rupees(threshold)}, a second person approves.`
            : 'Recharges waiting for their transfer.'
        }
      />
      <Outcome error={list.error ?? action.error} note={action.note} />
      <Card title={`Waiting · ${rows.length}`} flush>
        {rows.length === 0 ? (
          <Empty>{list.loading ? 'Loading…' : 'No recharge is waiting.'}</Empty>
        ) : (
          <div className={s.tableWrap}>
            <table className={s.table}>
              <thead>
                <tr>
                  <th>#</th>
                  <th>Customer</th>
                  <th className={s.num}>Amount</th>
                  <th>Bank reference (UTR)</th>
                  <th>Status</th>
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
                    data-testid={`deposit-${r.id}`}
                  >
                    <td className={s.mono}>{r.id}</td>
                    <td>
                      <Link className={s.strong} to={OPS_PATHS.customer(r.userId)}>
                        {r.customer.name ?? r.phone}
                      </Link>
                      {r.customer.name && <div className={`${s.small} ${s.muted} ${s.mono}`}>{r.phone}</div>}
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
                      <Reference row={r} />
                    </td>
                    <td>
                      {awaits(r) ? (
                        <>
                          <Badge tone={r.approval!.intact ? 'info' : 'danger'}>
                            {r.approval!.intact ? 'Awaits 2nd approval' : 'Changed since asked: void'}
                          </Badge>
                          <div className={`${s.small} ${s.muted}`}>Confirmed by {makerOf(r.approval!)}</div>
                        </>
                      ) : (
                        <Badge>To confirm</Badge>
                      )}
                      {r.claimedBy && (
                        <div className={`${s.small} ${s.muted}`}>Claimed by {r.claimedBy.name}</div>
                      )}
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
      <ConfirmDeposit
        confirming={confirming}
        threshold={threshold}
        onCancel={() => setConfirming(null)}
        onConfirm={decide}
      />
      <Dialog
        open={rejecting !== null}
        title={`Reject deposit ${rejecting?.id ?? ''}`}
        onClose={() => setRejecting(null)}
      >
        <form className={s.stack} onSubmit={reject}>
          <p className={s.muted}>
            {rupees(rejecting?.amount)} from {rejecting ? (rejecting.customer.name ?? rejecting.phone) : ''}{' '}
            is not credited. The customer reads this reason in their inbox.
          </p>
          <Field id="deposit-reject-text" label="Reason (needed)">
            <textarea
              id="deposit-reject-text"
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
            <Button tone="danger" type="submit" disabled={!text.trim()}>
              Reject
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
