import { useSearchParams } from 'react-router-dom';
import { worker } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { PAGE_SIZE, POLL_MS } from '../../shared/rules';
import { STOCK_STATUS } from '../../shared/status';
import { usePages } from '../../ui';
import { useCancelOrder } from '../_parts/trading/useCancelOrder';
import { useModifyOrder } from '../_parts/trading/useModifyOrder';

/** SPEC §2 stock records tabs; the statuses behind them are DESIGN.md's. */
export const RECORD_TABS = ['all', 'pending', 'success', 'cancelled', 'expired'] as const;
export type RecordTab = (typeof RECORD_TABS)[number];

export function statusOfTab(tab: RecordTab): number | undefined {
  return tab === 'all' ? undefined : STOCK_STATUS[tab];
}

/**
 * Stock records (SPEC §2): orders newest first, by tab (kept in the URL for back/forward), paged by
 * 10 as the list scrolls. A pending order can be modified or cancelled; every shown page reloads
 * after that.
 */
export function useRecords() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: RecordTab = (RECORD_TABS as readonly string[]).includes(raw ?? '') ? (raw as RecordTab) : 'all';
  const status = statusOfTab(tab);
  // The first page follows fills and expiries of pending orders while the screen is open.
  const first = useWatch('orderList', { status, page: 1, limit: PAGE_SIZE }, POLL_MS.prices);
  const paging = usePages(tab);
  const reloadAll = () => {
    first.reload();
    for (let page = 2; page <= paging.pages; page++)
      void worker().refresh('orderList', { status, page, limit: PAGE_SIZE });
  };
  const cancel = useCancelOrder(reloadAll);
  const modify = useModifyOrder(reloadAll);
  const setTab = (next: RecordTab) => setParams(next === 'all' ? {} : { tab: next }, { replace: true });
  const count = first.data?.count ?? 0;
  // The order a link opened the screen at (a fill's notification): its contract note shows first.
  const order = params.get('order');
  const opened = order && /^[A-Za-z0-9-]{1,40}$/.test(order) ? order : null;
  const closeOpened = () => {
    if (!params.has('order')) return;
    const next = new URLSearchParams(params);
    next.delete('order');
    setParams(next, { replace: true });
  };
  return {
    tab,
    setTab,
    status,
    first,
    paging,
    hasMore: paging.pages * PAGE_SIZE < count,
    cancel,
    modify,
    opened,
    closeOpened,
  };
}
