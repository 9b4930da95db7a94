import { useState } from 'react';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import type { LoanRecord } from '../../shared/contract/wallet';
import { toast } from '../../store/ui';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';

/** Loan records (SPEC §2): type, amount, state, time; an unpaid loan can be repaid in full. */
export function useLoanRecords() {
  const list = useWatch('loanList', {}, 0);
  const info = useWatch('userInfo', {}, 0);
  const repayCall = useMoneyCall('loanRepay');
  const [confirming, setConfirming] = useState<LoanRecord | null>(null);
  const [busy, setBusy] = useState(false);

  async function repay(loan: LoanRecord): Promise<void> {
    setBusy(true);
    const result = await repayCall({ id: loan.id });
    setBusy(false);
    setConfirming(null);
    if (!result.ok) {
      toastMoneyFailure(result.error, 'wallet.loan.repayFailed');
      return;
    }
    toast('wallet.loan.repaid', 'success');
    list.reload();
    info.reload();
  }

  return { list, info, confirming, setConfirming, busy, repay, call: repayCall };
}
