import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoneyCall } from '../../../api/money';
import { useConfig } from '../../../api/useConfig';
import type { Fund, FundOrder } from '../../../shared/contract/funds';
import { formatMoney } from '../../../shared/format';
import { FUND_STAMP_PPM, ppmOf } from '../../../shared/funds';
import { minorToWholeUnits, toMinor, unitsToMinor } from '../../../shared/money';
import { parseWholeAmount, typedAmount } from '../../../shared/rules';
import { toast } from '../../../store/ui';
import { toastMoneyFailure } from '../invest/useMoneyCall';
import { useNavDate } from './labels';

/**
 * A purchase at the next NAV: a whole-rupee amount of at least the fund's minimum, the stamp duty
 * the rule takes from it (src/shared/funds.ts, the server's rule), and the order. What the order
 * became is the server's answer: placed, waiting for its NAV.
 */
export function useFundBuy(fund: Fund, onDone: (order: FundOrder) => void) {
  const { t } = useTranslation();
  const config = useConfig();
  const navDate = useNavDate();
  const purchase = useMoneyCall('fundPurchase');
  const minimum = toMinor(fund.amount) ?? 0;
  const [text, setText] = useState(String(minorToWholeUnits(minimum)));
  const [busy, setBusy] = useState(false);
  const units = parseWholeAmount(text);
  const amountMinor = units === null ? null : unitsToMinor(units);
  const below = amountMinor !== null && amountMinor < minimum;
  const error = below ? t('fund.belowMinimum', { amount: formatMoney(minimum, config.currency, 0) }) : null;

  async function submit(): Promise<void> {
    if (units === null || below || busy) return;
    setBusy(true);
    const result = await purchase({ project_id: fund.id, amount: units });
    setBusy(false);
    if (result.ok) {
      toast('fund.placed', 'success', { name: fund.name, date: navDate(result.data.nav_date) });
      onDone(result.data);
    } else {
      toastMoneyFailure(result.error, 'fund.failed');
    }
  }

  return {
    text,
    change: (next: string) => setText(typedAmount(next)),
    amountMinor,
    stampMinor: amountMinor === null ? null : ppmOf(amountMinor, FUND_STAMP_PPM),
    minimum,
    error,
    valid: amountMinor !== null && !below,
    busy,
    call: purchase,
    submit,
  };
}
