import { useEffect, useRef, useState } from 'react';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import type { Fund } from '../../shared/contract/invest';
import { FUND_BUTTON_REENABLE_MS, POLL_MS } from '../../shared/rules';
import { toast } from '../../store/ui';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';

/**
 * Fund investment (SPEC §2/§4): the list, and one purchase at a time — the buy buttons are
 * disabled while purchasing and re-enabled 800 ms after it completes; the list reloads after.
 */
export function useFundInvestment() {
  const list = useWatch('fundList', {}, 0);
  const info = useWatch('userInfo', {}, POLL_MS.accountInfo);
  const purchase = useMoneyCall('fundPurchase');
  const [confirming, setConfirming] = useState<Fund | null>(null);
  /** The fund being bought, until 800 ms after the answer. */
  const [purchasing, setPurchasing] = useState<number | null>(null);
  const [inFlight, setInFlight] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  async function buy(fund: Fund): Promise<void> {
    setConfirming(null);
    setPurchasing(fund.id);
    setInFlight(true);
    const result = await purchase({ project_id: fund.id });
    setInFlight(false);
    if (result.ok) {
      toast('fund.success', 'success', { name: fund.name });
      list.reload();
      info.reload();
    } else {
      toastMoneyFailure(result.error, 'fund.failed');
    }
    timer.current = setTimeout(() => setPurchasing(null), FUND_BUTTON_REENABLE_MS);
  }

  return { list, info, confirming, setConfirming, purchasing, inFlight, buy, call: purchase };
}
