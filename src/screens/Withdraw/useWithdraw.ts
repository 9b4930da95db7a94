import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useConfig } from '../../api/useConfig';
import { formatMoney } from '../../shared/format';
import { toMinor } from '../../shared/money';
import {
  checkWithdrawForm,
  POLL_MS,
  parseWholeAmount,
  typedAmount,
  withdrawInline,
  withdrawMinimum,
} from '../../shared/rules';
import { toast } from '../../store/ui';
import { purchaseError, useMoneyCall } from '../invest/useMoneyCall';

/**
 * SPEC §2/§5 withdraw: a usable bank card, a whole amount of at least the larger of 10 and the
 * configured minimum, at most the available balance; reserved at once, then the withdraw records.
 */
export function useWithdraw() {
  const navigate = useNavigate();
  const config = useConfig();
  const cards = useWatch('bankList', {}, 0);
  const info = useWatch('userInfo', {}, POLL_MS.accountInfo);
  const [chosen, setChosen] = useState<number | null>(null);
  const [amount, setAmountText] = useState('');
  const [busy, setBusy] = useState(false);
  const withdraw = useMoneyCall('withdraw');

  const usable = (cards.data ?? []).filter((c) => c.status === 1);
  // One usable card needs no choosing; several wait for the user.
  const bankId = chosen ?? (usable.length === 1 ? (usable[0]?.id ?? null) : null);
  const minimum = withdrawMinimum(config.minWithdraw);
  const available = info.data?.money ?? null;
  const inline = withdrawInline(amount, minimum, available);
  const problem = checkWithdrawForm(bankId, amount, minimum, available);
  /** The whole units of the available balance, for "withdraw all". */
  const availableUnits = available === null ? 0 : Math.floor((toMinor(available) ?? 0) / 100);

  async function submit(): Promise<void> {
    const units = parseWholeAmount(amount);
    if (problem || units === null || bankId === null) return;
    setBusy(true);
    const result = await withdraw({ bank_id: bankId, count: units });
    setBusy(false);
    if (!result.ok) {
      toast(purchaseError(result.error, 'wallet.withdraw.failed'), 'error', {
        min: formatMoney(minimum * 100, config.currency, 0),
      });
      return;
    }
    toast('wallet.withdraw.success', 'success');
    info.reload();
    navigate('/withdraw-records', { replace: true });
  }

  return {
    cards,
    usable,
    bankId,
    choose: setChosen,
    amount,
    setAmount: (text: string) => setAmountText(typedAmount(text)),
    fillAll: () => setAmountText(availableUnits > 0 ? String(availableUnits) : ''),
    info,
    minimum,
    inline,
    canSubmit: problem === null && !busy,
    busy,
    submit,
  };
}
