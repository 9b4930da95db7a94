import { useEffect, useRef, useState } from 'react';
import { useWatch } from '../../api/hooks';
import type { Fund, FundPosition } from '../../shared/contract/funds';
import { FUND_BUTTON_REENABLE_MS, POLL_MS } from '../../shared/rules';

/**
 * Mutual funds (SPEC §2/§4): the list at the latest published NAVs, the user's units in each, and
 * one purchase at a time — the Invest buttons stay disabled until 800 ms after an order is placed,
 * then the list and the positions reload.
 */
export function useFundInvestment() {
  const list = useWatch('fundList', {}, 0);
  const info = useWatch('userInfo', {}, POLL_MS.accountInfo);
  const positions = useWatch('fundPositions', {}, POLL_MS.prices);
  const [buying, setBuying] = useState<Fund | null>(null);
  const [cooling, setCooling] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  function placed(): void {
    setBuying(null);
    setCooling(true);
    list.reload();
    info.reload();
    positions.reload();
    timer.current = setTimeout(() => setCooling(false), FUND_BUTTON_REENABLE_MS);
  }

  const positionOf = (fundId: number): FundPosition | undefined =>
    positions.data?.rows.find((p) => p.fund_id === fundId);

  return { list, info, positions, positionOf, buying, setBuying, cooling, placed };
}
