import { useState } from 'react';
import type { LoanRow } from '../../../shared/backoffice';
import { call } from '../../api';
import { rupees } from '../../format';
import { useAction, useNow, useOps } from '../../hooks';
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
  const [rejecting, setRejecting] = useState<LoanRow | null>(null);
  const [text, setText] = useState('');

  const approve = (l: LoanRow) =>
    void action.run(
      `approve:${l.id}`,
      () => call('loanApprove', { id: l.id }),
      `Loan ${l.id} approved: ${rupees(l.amount)} paid into the customer's balance.`,
    );

  async function reject() {
    if (!rejecting) return;
    const id = rejecting.id;
    setRejecting(null);
    await action.run(`reject:${id}`, () => call('loanReject', { id, text }), `Loan ${id} rejected.`);
    setText('');
  }

  return {
    rows: list.data ?? [],
    loading: list.loading,
    now,
    decides: me.caps.includes('approve'),
    busy: action.busy,
    error: list.error ?? action.error,
    note: action.note,
    approve,
    reject: {
      row: rejecting,
      open: setRejecting,
      close: () => setRejecting(null),
      text,
      setText,
      ready: text.trim() !== '',
      submit: () => void reject(),
    },
  };
}
