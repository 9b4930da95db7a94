import { Link } from 'react-router-dom';
import { KYC_STATUS } from '../../../shared/status';
import { DecisionDialog } from '../../DecisionDialog';
import { KYC_LABEL, rupees } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Age, Badge, Button, Card, Empty, Outcome, PageHead, css as s } from '../../ui';
import { useLoans } from './useLoans';

/** Loan applications: approve (disbursed at once) or reject with the reason (the decisions: useLoans). */
export function LoansScreen() {
  const loans = useLoans();
  const { rows, reject } = loans;

  return (
    <>
      <PageHead
        title="Loan applications"
        subtitle="Approving pays the amount into the customer's balance at once."
      />
      <Outcome error={loans.error} note={loans.note} />
      <Card title={`Applying · ${rows.length}`} flush>
        {rows.length === 0 ? (
          <Empty>{loans.loading ? 'Loading…' : 'No application waits.'}</Empty>
        ) : (
          <table className={s.table}>
            <thead>
              <tr>
                <th>#</th>
                <th>Customer</th>
                <th>Real-name</th>
                <th className={s.num}>Amount</th>
                <th className={s.num}>Credit score</th>
                <th className={s.num}>Already due</th>
                <th className={s.num}>Waiting</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((l) => (
                <tr key={l.id}>
                  <td className={s.mono}>{l.id}</td>
                  <td>
                    <Link className={s.strong} to={OPS_PATHS.customer(l.userId)}>
                      {l.customer.name ?? l.phone}
                    </Link>
                    {l.customer.name && <div className={`${s.small} ${s.muted} ${s.mono}`}>{l.phone}</div>}
                  </td>
                  <td>
                    <Badge
                      tone={
                        l.customer.kycStatus === KYC_STATUS.approved
                          ? 'ok'
                          : l.customer.kycStatus === KYC_STATUS.rejected
                            ? 'danger'
                            : 'warn'
                      }
                    >
                      {KYC_LABEL[l.customer.kycStatus]}
                    </Badge>
                  </td>
                  <td className={`${s.num} ${s.strong}`}>{rupees(l.amount)}</td>
                  <td className={s.num}>{l.creditScore}</td>
                  <td className={s.num}>{rupees(l.openLoans)}</td>
                  <td className={s.num}>
                    <Age since={l.askedAt} now={loans.now} target={24 * 3600_000} />
                  </td>
                  <td className={s.num}>
                    {loans.decides ? (
                      <div className={s.actions}>
                        <Button
                          small
                          tone="primary"
                          busy={loans.busy === `approve:${l.id}`}
                          onClick={() => loans.approve(l)}
                        >
                          Approve
                        </Button>
                        <Button small tone="danger" onClick={() => reject.open(l)}>
                          Reject
                        </Button>
                      </div>
                    ) : (
                      <span className={`${s.small} ${s.muted}`}>An approver decides</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <DecisionDialog
        open={reject.row !== null}
        title={`Reject loan ${reject.row?.id ?? ''}`}
        onClose={reject.close}
        reason={{
          id: 'loan-reason',
          label: 'Reason (kept in the audit log)',
          value: reject.text,
          onChange: reject.setText,
        }}
        decide={{ tone: 'danger', label: 'Reject', ready: reject.ready }}
        onDecide={() => void reject.submit()}
      />
    </>
  );
}
