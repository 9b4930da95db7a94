import { useState } from 'react';
import type { RechargeRecord } from '../../shared/contract/wallet';
import { checkRechargeForm, parseWholeAmount, rechargeInline, typedAmount } from '../../shared/rules';
import { toast } from '../../store/ui';
import { purchaseError, useMoneyCall } from '../invest/useMoneyCall';

/** SPEC §2/§5 recharge: bank transfer only; the amount is whole units, at least 5000. */
export function useRecharge() {
  const [method, setMethod] = useState<'bank' | null>(null);
  const [amount, setAmountText] = useState('');
  /** The message shown after a submit attempt (empty amount, no method). */
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<RechargeRecord | null>(null);
  const recharge = useMoneyCall('recharge');

  const inline = rechargeInline(amount);

  async function submit(): Promise<void> {
    const problem = checkRechargeForm(method, amount);
    setSubmitError(problem);
    const units = parseWholeAmount(amount);
    if (problem || units === null) return;
    setBusy(true);
    const result = await recharge({ count: units, method: 'bank' });
    setBusy(false);
    if (!result.ok) {
      toast(purchaseError(result.error, 'wallet.recharge.failed'), 'error');
      return;
    }
    setDone(result.data);
    setAmountText('');
  }

  return {
    method,
    setMethod: (m: 'bank') => {
      setMethod(m);
      setSubmitError(null);
    },
    amount,
    setAmount: (text: string) => {
      setAmountText(typedAmount(text));
      setSubmitError(null);
    },
    /** What to show under the amount: the typed value's problem, else the last submit's. */
    amountError:
      inline ?? (submitError && submitError !== 'wallet.recharge.selectMethod' ? submitError : null),
    methodError: submitError === 'wallet.recharge.selectMethod' ? submitError : null,
    canSubmit: inline === null && !busy,
    busy,
    submit,
    done,
    closeDone: () => setDone(null),
  };
}
