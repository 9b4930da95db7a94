import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import { formatMoney } from '../../shared/format';
import { minorToWholeUnits, toMinor, unitsToMinor } from '../../shared/money';
import {
  checkWithdrawForm,
  POLL_MS,
  parseWholeAmount,
  typedAmount,
  withdrawInline,
  withdrawMinimum,
} from '../../shared/rules';
import { BANK_CARD_STATUS } from '../../shared/status';
import { withStepUp } from '../../shell/stepUp';
import { isTradePasswordError } from '../../shell/TradePasswordPrompt';
import { toast } from '../../store/ui';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';

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
  /** The transaction password prompt is open for the form as it was submitted. */
  const [asking, setAsking] = useState(false);
  const withdraw = useMoneyCall('withdraw');

  const usable = (cards.data ?? []).filter((c) => c.status === BANK_CARD_STATUS.usable);
  // One usable card needs no choosing; several wait for the user.
  const bankId = chosen ?? (usable.length === 1 ? (usable[0]?.id ?? null) : null);
  const minimum = withdrawMinimum(config.minWithdraw);
  const available = info.data?.money ?? null;
  const inline = withdrawInline(amount, minimum, available);
  const problem = checkWithdrawForm(bankId, amount, minimum, available);
  /** The whole units of the available balance, for "withdraw all". */
  const availableUnits = available === null ? 0 : minorToWholeUnits(toMinor(available) ?? 0);

  /** A valid form asks for the transaction password before anything is sent. */
  function submit(): void {
    if (problem || parseWholeAmount(amount) === null || bankId === null) return;
    setAsking(true);
  }

  /** Sends the withdrawal with the code; answers a code error for the prompt, else null. */
  async function confirm(code: string): Promise<string | null> {
    const units = parseWholeAmount(amount);
    if (units === null || bankId === null) return null;
    setBusy(true);
    // Where the account has a second factor, a fresh proof of it first.
    const result = await withStepUp(() => withdraw({ bank_id: bankId, count: units, stock_password: code }));
    setBusy(false);
    if (!result.ok) {
      if (isTradePasswordError(result.error)) return result.error;
      setAsking(false);
      toastMoneyFailure(result.error, 'wallet.withdraw.failed', {
        min: formatMoney(unitsToMinor(minimum), config.currency, 0),
      });
      return null;
    }
    setAsking(false);
    // Said from the server's record: the money is reserved and on its way, or waiting for the team —
    // never "successful" before the bank has it.
    const sent = formatMoney(result.data.count, config.currency);
    toast(result.data.hold ? 'wallet.withdraw.requestedHeld' : 'wallet.withdraw.requested', 'success', {
      amount: sent,
    });
    info.reload();
    navigate(PATHS.withdrawRecords, { replace: true });
    return null;
  }

  return {
    call: withdraw,
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
    asking,
    confirm,
    cancelAsking: () => setAsking(false),
    /** undefined until user info has loaded. */
    hasTradePassword: info.data?.has_fund_password,
    units: parseWholeAmount(amount),
  };
}
