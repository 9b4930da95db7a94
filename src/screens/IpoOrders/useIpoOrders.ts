import { useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import type { OrderRow } from '../../shared/contract/trading';
import { IPO_QUANTITY_STATUSES, IPO_STATUS } from '../../shared/status';
import type { Tone } from '../../ui';

/** SPEC §2 IPO orders: tab 0 Application Records, 1 Sales Record (kept in the URL for back/forward). */
export type IpoTab = '0' | '1';

export function useIpoOrders() {
  const [params, setParams] = useSearchParams();
  const tab: IpoTab = params.get('tab') === '1' ? '1' : '0';
  const orders = useWatch('ipoOrders', { type: tab === '1' ? 1 : 0 }, 0);
  const setTab = (next: IpoTab) => setParams(next === '0' ? {} : { tab: next }, { replace: true });
  return { tab, setTab, orders };
}

/** SPEC §4: on the application tab 1 pending, 2 success, 3 failed; on the sales tab 1 success, else failed. */
export function ipoOrderStatus(order: OrderRow, tab: IpoTab): { key: string; tone: Tone } {
  if (tab === '1')
    return order.status === IPO_STATUS.sold
      ? { key: 'ipo.status.success', tone: 'success' }
      : { key: 'ipo.status.failed', tone: 'danger' };
  switch (order.status) {
    case IPO_STATUS.pending:
      return { key: 'ipo.status.pending', tone: 'warn' };
    case IPO_STATUS.allotted:
      return { key: 'ipo.status.success', tone: 'success' };
    case IPO_STATUS.refunded:
      return { key: 'ipo.status.failed', tone: 'danger' };
    default:
      return { key: 'ipo.status.unknown', tone: 'muted' };
  }
}

/** SPEC §2: the quantity shows only for status 0 or 2. */
export const showsQuantity = (order: OrderRow) => IPO_QUANTITY_STATUSES.includes(order.status);
