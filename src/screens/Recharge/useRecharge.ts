import { useState } from 'react';
import { useMoneyCall } from '../../api/money';
import type { RechargeRecord } from '../../shared/contract/wallet';
import { checkRechargeForm, parseWholeAmount, rechargeInline, typedAmount } from '../../shared/rules';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';

/** A UTR as banks print it: 12 (IMPS, UPI) to 22 (NEFT, RTGS) letters and digits; the server's rule. */
const UTR = /^[A-Z0-9]{12,22}$/;

/** SPEC §2/§5 recharge: bank transfer only; the amount is whole units, at least 5000. */
export function useRecharge() {
  const [method, setMethod] = useState<'bank' | null>(null);
  const [amount, setAmountText] = useState('');
  /** The transfer's bank reference (UTR), optional: staff match it on the bank statement. */
  const [reference, setReferenceText] = useState('');
  /** The message shown after a submit attempt (empty amount, no method). */
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<RechargeRecord | null>(null);
  const recharge = useMoneyCall('recharge');

  const inline = rechargeInline(amount);
  const utr = reference.replace(/\s+/g, '').toUpperCase();
  const referenceError = utr && !UTR.test(utr) ? 'wallet.recharge.referenceInvalid' : null;

  async function submit(): Promise<void> {
    const problem = checkRechargeForm(method, amount);
    setSubmitError(problem);
    const units = parseWholeAmount(amount);
    if (problem || units === null || referenceError) return;
    setBusy(true);
    const result = await recharge({ count: units, method: 'bank', ...(utr ? { reference: utr } : {}) });
    setBusy(false);
    if (!result.ok) {
      toastMoneyFailure(result.error, 'wallet.recharge.failed');
      return;
    }
    setDone(result.data);
    setAmountText('');
    setReferenceText('');
  }

  return {
    call: recharge,
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
    reference,
    setReference: setReferenceText,
    referenceError,
    /** What to show under the amount: the typed value's problem, else the last submit's. */
    amountError:
      inline ?? (submitError && submitError !== 'wallet.recharge.selectMethod' ? submitError : null),
    methodError: submitError === 'wallet.recharge.selectMethod' ? submitError : null,
    /**
     * The whole form is valid. Until then the button looks disabled but a tap still submits, which
     * shows what is missing (the password screens' rule).
     */
    ready: checkRechargeForm(method, amount) === null && !referenceError,
    busy,
    submit,
    done,
    closeDone: () => setDone(null),
  };
}
