import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import { formatMoney } from '../../shared/format';
import { checkLoanForm, loanInline, parseWholeAmount, typedAmount } from '../../shared/rules';
import { toast } from '../../store/ui';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';

/** Loan (SPEC §2): amount due, credit score, remaining credit, and the application dialog. */
export function useLoan() {
  const data = useWatch('loanData', {}, 0);
  return { data };
}

/**
 * SPEC §5 loan application: digits only, at least 500 (inline error, submit disabled below), at
 * most the remaining credit; after success the application's status (/LoanApplication).
 */
export function useLoanApply(remaining: string | undefined) {
  const navigate = useNavigate();
  const { currency } = useConfig();
  const [open, setOpen] = useState(false);
  const [amount, setAmountText] = useState('');
  const [busy, setBusy] = useState(false);
  const apply = useMoneyCall('loanApply');
  const inline = loanInline(amount, remaining);
  const problem = checkLoanForm(amount, remaining);

  async function submit(): Promise<void> {
    const units = parseWholeAmount(amount);
    if (problem || units === null) return;
    setBusy(true);
    const result = await apply({ count: units });
    setBusy(false);
    if (!result.ok) {
      toastMoneyFailure(result.error, 'wallet.loan.error', {
        max: remaining === undefined ? '' : formatMoney(remaining, currency),
      });
      return;
    }
    toast('wallet.loan.success', 'success');
    setOpen(false);
    navigate(PATHS.loanApplication);
  }

  return {
    call: apply,
    open,
    show: () => setOpen(true),
    close: () => {
      setOpen(false);
      setAmountText('');
    },
    amount,
    setAmount: (text: string) => setAmountText(typedAmount(text)),
    inline,
    canSubmit: problem === null && !busy,
    busy,
    submit,
  };
}
