import { useSearchParams } from 'react-router-dom';
import { worker } from '../../api/client';
import { useWatch } from '../../api/hooks';
import type { OrderRow } from '../../shared/contract/trading';
import { PAGE_SIZE, POLL_MS } from '../../shared/rules';
import { STOCK_STATUS } from '../../shared/status';
import type { Tone } from '../../ui';
import { usePages } from '../../ui';
import { useCancelOrder } from '../_parts/trading/useCancelOrder';
import { useModifyOrder } from '../_parts/trading/useModifyOrder';

/** SPEC §2 stock records tabs; the statuses behind them are DESIGN.md's. */
export const RECORD_TABS = ['all', 'pending', 'success', 'cancelled', 'expired'] as const;
export type RecordTab = (typeof RECORD_TABS)[number];

export function statusOfTab(tab: RecordTab): number | undefined {
  return tab === 'all' ? undefined : STOCK_STATUS[tab];
}

/** An order's status label and tone (DESIGN.md: 0 pending, 1 success, 2 cancelled, 3 expired, 4 failed). */
export function recordStatus(order: Pick<OrderRow, 'status'>): { key: string; tone: Tone } {
  switch (order.status) {
    case STOCK_STATUS.pending:
      return { key: 'records.status.pending', tone: 'warn' };
    case STOCK_STATUS.success:
      return { key: 'records.status.success', tone: 'success' };
    case STOCK_STATUS.cancelled:
      return { key: 'records.status.cancelled', tone: 'muted' };
    case STOCK_STATUS.expired:
      return { key: 'records.status.expired', tone: 'muted' };
    case STOCK_STATUS.failed:
      return { key: 'records.status.failed', tone: 'danger' };
    default:
      return { key: 'records.status.unknown', tone: 'muted' };
  }
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
  return { tab, setTab, status, first, paging, hasMore: paging.pages * PAGE_SIZE < count, cancel, modify };
}
