import { useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import type { FundOrder } from '../../shared/contract/invest';
import type { Tone } from '../../ui';

/** SPEC §2 fund order tabs (kept in the URL for back/forward). */
export type FundTab = 'all' | FundOrder['status'];
const TABS: readonly FundTab[] = ['all', 'active', 'completed', 'cancelled'];

export function useFundOrders() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: FundTab = TABS.includes(raw as FundTab) ? (raw as FundTab) : 'all';
  const orders = useWatch('fundOrders', tab === 'all' ? {} : { status: tab }, 0);
  const setTab = (next: FundTab) => setParams(next === 'all' ? {} : { tab: next }, { replace: true });
  return { tab, tabs: TABS, setTab, orders };
}

const STATUS: Record<string, { key: string; tone: Tone }> = {
  active: { key: 'fund.status.active', tone: 'info' },
  completed: { key: 'fund.status.completed', tone: 'success' },
  cancelled: { key: 'fund.status.cancelled', tone: 'muted' },
};

/** SPEC §4: active, completed, cancelled; anything else shows the unknown-state text. */
export function fundOrderStatus(status: string): { key: string; tone: Tone } {
  return STATUS[status] ?? { key: 'fund.status.unknown', tone: 'warn' };
}
