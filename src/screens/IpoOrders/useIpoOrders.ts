import { useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';

/** SPEC §2 IPO orders: tab 0 Application Records, 1 Sales Record (kept in the URL for back/forward). */
export type IpoTab = '0' | '1';

export function useIpoOrders() {
  const [params, setParams] = useSearchParams();
  const tab: IpoTab = params.get('tab') === '1' ? '1' : '0';
  const orders = useWatch('ipoOrders', { type: tab === '1' ? 1 : 0 }, 0);
  const setTab = (next: IpoTab) => setParams(next === '0' ? {} : { tab: next }, { replace: true });
  return { tab, setTab, orders };
}
