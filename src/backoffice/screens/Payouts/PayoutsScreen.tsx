import {
  PAYOUT_REJECTION_REASONS,
  type PayoutRejectionReason,
  type PayoutRow,
} from '../../../shared/backoffice';
import { DecisionDialog } from '../../DecisionDialog';
import { cardTail, makerOf, rupees } from '../../format';
import { Age, Badge, Button, Card, Empty, Field, Icon, Outcome, PageHead, css as s } from '../../ui';
import {
  awaits,
  ConfirmPayout,
  Customer,
  Detail,
  REJECT_LABEL,
  reasons,
  Status,
  TARGET,
} from './PayoutParts';
import { usePayouts } from './usePayouts';

/**
 * Payouts: withdrawals in progress, held ones first, each with every reason
 * it waits (a card changed lately, the customer's 24 h above the threshold). Pay, release to the
 * payment rail or reject with a reason. Above the threshold a payout is two people's: the first
 * "Pay" asks for a second approval, which another member gives (never the one who asked); the
 * server binds it to the payout as it was. Paying and approving each ask a confirmation that says
 * again what leaves: the amount, the payee and the card. The decisions are usePayouts'.
 */

export function PayoutsScreen() {
  const p = usePayouts();
  const { reject } = p;

  /** The row's decisions: one that moves money (Approve or Pay), and Reject. */
  function rowActions(r: PayoutRow) {
    const approval = p.approval(r);
    return (
      <div className={s.actions}>
        {approval.offered && (
          <Button
            small
            tone="approve"
            disabled={approval.blocked}
            title={approval.mine ? 'You asked for this payout: another member approves it' : undefined}
            busy={p.busy === `approve:${r.id}`}
            onClick={(e) => {
              e.stopPropagation();
              p.ask({ row: r, kind: 'approve' });
            }}
          >
            <Icon name="check" size={15} />
            Approve…
          </Button>
        )}
        {!awaits(r) && r.hold && p.canPay && (
          <Button
            small
            tone="primary"
            busy={p.busy === `pay:${r.id}`}
            onClick={(e) => {
              e.stopPropagation();
              p.ask({ row: r, kind: 'pay' });
            }}
          >
            Pay…
          </Button>
        )}
        {p.canPay && (
          <Button
            small
            tone="danger"
            onClick={(e) => {
              e.stopPropagation();
              reject.open(r);
            }}
          >
            Reject…
          </Button>
        )}
      </div>
    );
  }

  const detail = p.detail;
  return (
    <>
      <PageHead
        title="Payouts"
        subtitle={
          p.loaded
            ? `When a customer's payouts in 24 h pass ${rupees(p.threshold)}, a second person approves.`
            : 'Withdrawals waiting to be paid.'
        }
      >
        <Button small onClick={p.exportCsv}>
          Export CSV
        </Button>
      </PageHead>
      <Outcome error={p.error} note={p.note} />
      <Card title={`In progress · ${p.rows.length}`} flush>
        {p.rows.length === 0 ? (
          <Empty>{p.loading ? 'Loading…' : 'No withdrawal is in progress.'}</Empty>
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
                {p.rows.map((r) => (
                  <tr
                    key={r.id}
                    className={r.id === p.picked ? s.rowActive : undefined}
                    data-testid={`payout-${r.id}`}
                    onClick={() => p.pick(r.id)}
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
                      {reasons(r, p.threshold, p.now).map((w) => (
                        <div key={w} className={`${s.small} ${s.muted}`}>
                          {w}
                        </div>
                      ))}
                    </td>
                    <td className={s.num}>
                      <Age since={r.askedAt} now={p.now} target={TARGET} />
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
          threshold={p.threshold}
          now={p.now}
          actions={
            <>
              <Status row={detail} />
              {!awaits(detail) && detail.hold && !detail.needsApproval && p.canPay && (
                <Button
                  small
                  busy={p.busy === `release:${detail.id}`}
                  title="The payment rail pays it at its next run"
                  onClick={() => p.release(detail)}
                >
                  Release to the rail
                </Button>
              )}
            </>
          }
        />
      )}
      <ConfirmPayout
        confirming={p.confirming}
        threshold={p.threshold}
        now={p.now}
        onCancel={p.cancel}
        onConfirm={p.confirm}
      />
      <DecisionDialog
        open={reject.row !== null}
        title={`Reject withdrawal ${reject.row?.id ?? ''}`}
        onClose={reject.close}
        reason={{
          id: 'reject-text',
          label: `Note ${reject.reason === 'other' ? '(needed)' : '(optional)'}`,
          value: reject.text,
          onChange: reject.setText,
        }}
        decide={{ tone: 'danger', label: 'Reject and refund', ready: reject.ready }}
        onDecide={() => void reject.submit()}
      >
        <p className={s.muted}>
          {rupees(reject.row?.amount)} goes back to{' '}
          {reject.row ? (reject.row.customer.name ?? reject.row.phone) : ''}
          's balance at once.
        </p>
        <Field id="reject-reason" label="Reason">
          <select
            id="reject-reason"
            className={s.select}
            value={reject.reason}
            // The options are the list's own words.
            onChange={(e) => reject.setReason(e.target.value as PayoutRejectionReason)}
          >
            {PAYOUT_REJECTION_REASONS.map((r) => (
              <option key={r} value={r}>
                {REJECT_LABEL[r]}
              </option>
            ))}
          </select>
        </Field>
      </DecisionDialog>
    </>
  );
}
