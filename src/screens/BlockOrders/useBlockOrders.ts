import { useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import type { BlockMold } from '../BlockTrading/useBlockTrading';

/** SPEC §4 block order tabs: 0 all, 2 failed, 1 success (kept in the URL for back/forward). */
export type BlockTab = '0' | '2' | '1';
const TABS: readonly BlockTab[] = ['0', '2', '1'];

export function useBlockOrders(mold: BlockMold) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: BlockTab = TABS.includes(raw as BlockTab) ? (raw as BlockTab) : '0';
  const orders = useWatch('dealList', { mold, status: Number(tab) }, 0);
  const setTab = (next: BlockTab) => setParams(next === '0' ? {} : { tab: next }, { replace: true });
  return { tab, setTab, orders };
}
