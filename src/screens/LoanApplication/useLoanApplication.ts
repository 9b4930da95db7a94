import { useEffect, useState } from 'react';
import { useWatch } from '../../api/hooks';
import { POLL_MS } from '../../shared/rules';
import { LOAN_STATE } from '../../shared/status';

/**
 * The latest loan application and its status (SPEC §4: after a loan request, LoanApplication).
 * While it waits for the operator (state 1) the list is refreshed, so a decision shows by itself.
 */
export function useLoanApplication() {
  const [waiting, setWaiting] = useState(false);
  const list = useWatch('loanList', {}, waiting ? POLL_MS.accountInfo : 0);
  const latest = list.data?.rows[0];
  const applying = latest?.state === LOAN_STATE.applying;
  useEffect(() => setWaiting(applying), [applying]);
  return { list };
}
