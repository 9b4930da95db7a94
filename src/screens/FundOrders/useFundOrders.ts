import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import type { FundOrder } from '../../shared/contract/funds';
import { toast } from '../../store/ui';
import { toastMoneyFailure } from '../_parts/invest/useMoneyCall';

/** SPEC §2 fund order tabs (kept in the URL for back/forward); `active` is an order awaiting its NAV. */
export type FundTab = 'all' | FundOrder['status'];
const TABS: readonly FundTab[] = ['all', 'active', 'completed', 'cancelled'];

/** Fund orders: the tab's rows, and cancelling a pending one before its cut-off. */
export function useFundOrders() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: FundTab = TABS.includes(raw as FundTab) ? (raw as FundTab) : 'all';
  const orders = useWatch('fundOrders', tab === 'all' ? {} : { status: tab }, 0);
  const setTab = (next: FundTab) => setParams(next === 'all' ? {} : { tab: next }, { replace: true });
  const cancelCall = useMoneyCall('fundCancel');
  const [cancelling, setCancelling] = useState<FundOrder | null>(null);
  const [busy, setBusy] = useState(false);

  async function cancel(): Promise<void> {
    if (!cancelling || busy) return;
    setBusy(true);
    const result = await cancelCall({ id: cancelling.id });
    setBusy(false);
    setCancelling(null);
    // The card shows what the server says the order is now.
    orders.reload();
    if (result.ok) toast('fund.cancelled', 'success');
    else toastMoneyFailure(result.error, 'fund.cancelFailed');
  }

  return { tab, tabs: TABS, setTab, orders, cancelling, setCancelling, cancel, busy, cancelCall };
}
