import type { LoanRow } from '../../../shared/backoffice';
import { call } from '../../api';
import { rupees } from '../../format';
import { useAction, useNow, useOps, useRejection } from '../../hooks';
import { useMe } from '../../session';

/**
 * The loan applications and their two decisions — approve (paid out at once), reject with the
 * reason for the audit log — through one `useAction` (which one is busy, the refusal, the outcome).
 * Only a member with the approve capability decides.
 */
export function useLoans() {
  const me = useMe();
  const list = useOps('loans', {}, 15_000);
  const now = useNow(5000);
  const action = useAction(list.reload);

  const approve = (l: LoanRow) =>
    void action.run(
      `approve:${l.id}`,
      () => call('loanApprove', { id: l.id }),
      `Loan ${l.id} approved: ${rupees(l.amount)} paid into the customer's balance.`,
    );

  return {
    rows: list.data ?? [],
    loading: list.loading,
    now,
    decides: me.caps.includes('approve'),
    busy: action.busy,
    error: list.error ?? action.error,
    note: action.note,
    approve,
    /** The reject dialog: the reason, kept in the audit log, is needed. */
    reject: useRejection((l: LoanRow, text) =>
      action.run(`reject:${l.id}`, () => call('loanReject', { id: l.id, text }), `Loan ${l.id} rejected.`),
    ),
  };
}
