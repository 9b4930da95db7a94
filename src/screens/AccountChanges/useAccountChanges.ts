import { useSearchParams } from 'react-router-dom';
import { useInfinite } from '../../api/useInfinite';

/** SPEC §2 account-change tabs, kept in the URL for back/forward. */
export type ChangesTab = 'all' | 'income' | 'expense';
const TABS: readonly ChangesTab[] = ['all', 'income', 'expense'];

/** The bill list (the ledger) of one tab, paged as the user scrolls. */
export function useAccountChanges() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: ChangesTab = TABS.includes(raw as ChangesTab) ? (raw as ChangesTab) : 'all';
  const bills = useInfinite('bill', { type: tab });
  const setTab = (next: ChangesTab) => setParams(next === 'all' ? {} : { tab: next }, { replace: true });
  return { tab, tabs: TABS, setTab, bills };
}
