import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { LoanRow } from '../../shared/backoffice';
import { KYC_STATUS } from '../../shared/status';
import { call } from '../api';
import { KYC_LABEL, rupees } from '../format';
import { useNow, useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { useMe } from '../session';
import { Age, Badge, Button, Card, Dialog, Empty, ErrorLine, Field, PageHead, css as s } from '../ui';

/** Loan applications: approve (disbursed at once) or reject with the reason. */
export function Loans() {
  const me = useMe();
  const list = useOps('loans', {}, 15_000);
  const now = useNow(5000);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<LoanRow | null>(null);
  const [text, setText] = useState('');
  const decide = me.caps.includes('approve');
  const rows = list.data ?? [];

  async function approve(l: LoanRow) {
    const r = await call('loanApprove', { id: l.id });
    setError(r.ok ? null : r.error);
    setNote(r.ok ? `Loan ${l.id} approved: ${rupees(l.amount)} paid into the customer's balance.` : null);
    list.reload();
  }
  async function reject() {
    if (!rejecting) return;
    const r = await call('loanReject', { id: rejecting.id, text });
    setError(r.ok ? null : r.error);
    setNote(r.ok ? `Loan ${rejecting.id} rejected.` : null);
    setRejecting(null);
    setText('');
    list.reload();
  }

  return (
    <>
      <PageHead
        title="Loan applications"
        subtitle="Approving pays the amount into the customer's balance at once."
      />
      <ErrorLine error={list.error ?? error} />
      {note && (
        <p className={`${s.ok} ${s.banner}`} role="status">
          {note}
        </p>
      )}
      <Card title={`Applying · ${rows.length}`} flush>
        {rows.length === 0 ? (
          <Empty>{list.loading ? 'Loading…' : 'No application waits.'}</Empty>
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
                    <Age since={l.askedAt} now={now} target={24 * 3600_000} />
                  </td>
                  <td className={s.num}>
                    {decide ? (
                      <div className={s.actions}>
                        <Button small tone="primary" onClick={() => void approve(l)}>
                          Approve
                        </Button>
                        <Button small tone="danger" onClick={() => setRejecting(l)}>
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
      <Dialog
        open={rejecting !== null}
        title={`Reject loan ${rejecting?.id ?? ''}`}
        onClose={() => setRejecting(null)}
      >
        <Field id="loan-reason" label="Reason (kept in the audit log)">
          <textarea
            id="loan-reason"
            className={s.textarea}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
        <div className={s.dialogActions}>
          <Button tone="ghost" onClick={() => setRejecting(null)}>
            Cancel
          </Button>
          <Button tone="danger" disabled={!text.trim()} onClick={() => void reject()}>
            Reject
          </Button>
        </div>
      </Dialog>
    </>
  );
}
