import { Link } from 'react-router-dom';
import type { DepositRow } from '../../../shared/backoffice';
import { DecisionDialog } from '../../DecisionDialog';
import { makerOf, rupees, when } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Age, Badge, Button, Card, Empty, Icon, Outcome, PageHead, css as s } from '../../ui';
import { type Confirming, useDeposits } from './useDeposits';

/**
 * Deposits: recharges waiting for their transfer to be seen on the bank statement, oldest first,
 * each with the bank reference (UTR) the customer gave. Confirm credits the customer; reject says
 * why, and the customer reads it in their inbox. Above the threshold a confirmation is two
 * people's: the first "Confirm" asks, another member approves (never the one who asked). Each asks
 * a confirmation that says again what is credited: the amount, the customer and the reference. The
 * decisions are useDeposits'.
 */

const TARGET = 60 * 60_000;

const awaits = (r: DepositRow) => r.approval?.status === 'awaiting';

function Reference({ row }: { row: DepositRow }) {
  return row.reference ? (
    <span className={s.mono}>{row.reference}</span>
  ) : (
    <span className={s.muted}>None given</span>
  );
}

/** The confirmation before a deposit is credited: the amount, the customer and the reference, said again. */
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
  return (
    <DecisionDialog
      open={confirming !== null}
      title={
        approve
          ? `Approve and credit deposit #${r?.id ?? ''}`
          : asks
            ? `Ask for a second approval of #${r?.id ?? ''}`
            : `Confirm deposit #${r?.id ?? ''}`
      }
      onClose={onCancel}
      amount={rupees(r?.amount)}
      decide={{
        tone: approve ? 'approve' : 'primary',
        label: approve
          ? `Approve and credit ${rupees(r?.amount)}`
          : asks
            ? 'Ask for the second approval'
            : `Credit ${rupees(r?.amount)}`,
      }}
      onDecide={() => confirming && onConfirm(confirming)}
    >
      {r && (
        <>
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
        </>
      )}
    </DecisionDialog>
  );
}

export function DepositsScreen() {
  const d = useDeposits();
  const { reject, rows, threshold } = d;

  function rowActions(r: DepositRow) {
    const approval = d.approval(r);
    return (
      <div className={s.actions}>
        {approval.offered && (
          <Button
            small
            tone="approve"
            disabled={approval.blocked}
            title={approval.mine ? 'You confirmed this deposit: another member approves it' : undefined}
            busy={d.busy === `approve:${r.id}`}
            onClick={() => d.ask({ row: r, kind: 'approve' })}
          >
            <Icon name="check" size={15} />
            Approve…
          </Button>
        )}
        {!awaits(r) && d.canPay && (
          <Button
            small
            tone="primary"
            busy={d.busy === `confirm:${r.id}`}
            onClick={() => d.ask({ row: r, kind: 'confirm' })}
          >
            Confirm…
          </Button>
        )}
        {d.canPay && (
          <Button small tone="danger" onClick={() => reject.open(r)}>
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
          d.loaded
            ? `Recharges waiting for their transfer. Above ${rupees(threshold)}, a second person approves.`
            : 'Recharges waiting for their transfer.'
        }
      />
      <Outcome error={d.error} note={d.note} />
      <Card title={`Waiting · ${rows.length}`} flush>
        {rows.length === 0 ? (
          <Empty>{d.loading ? 'Loading…' : 'No recharge is waiting.'}</Empty>
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
                    className={r.id === d.picked ? s.rowActive : undefined}
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
                      <Age since={r.askedAt} now={d.now} target={TARGET} />
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
        confirming={d.confirming}
        threshold={threshold}
        onCancel={d.cancel}
        onConfirm={d.confirm}
      />
      <DecisionDialog
        open={reject.row !== null}
        title={`Reject deposit ${reject.row?.id ?? ''}`}
        onClose={reject.close}
        reason={{
          id: 'deposit-reject-text',
          label: 'Reason (needed)',
          value: reject.text,
          onChange: reject.setText,
        }}
        decide={{ tone: 'danger', label: 'Reject', ready: reject.ready }}
        onDecide={() => void reject.submit()}
      >
        <p className={s.muted}>
          {rupees(reject.row?.amount)} from {reject.row ? (reject.row.customer.name ?? reject.row.phone) : ''}{' '}
          is not credited. The customer reads this reason in their inbox.
        </p>
      </DecisionDialog>
    </>
  );
}
