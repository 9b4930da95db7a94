import { useEffect, useState } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { PATHS } from '../../paths';
import { PAGE_SIZE, POLL_MS } from '../../shared/rules';
import { isPending } from '../_parts/wallet/status';

export type RecordsTab = 'recharge' | 'withdraw';

/**
 * Recharge/withdraw records (SPEC §2): /recharge-records/{type?} and /withdraw-records share one
 * screen; the page number is in the URL (real paging, where SPEC's widget was not wired). While a
 * record on the page is in progress the page is refreshed, so its settling shows without a reload.
 */
export function useWalletRecords() {
  const { pathname } = useLocation();
  const { type } = useParams();
  const [params, setParams] = useSearchParams();
  const tab: RecordsTab =
    pathname.startsWith(PATHS.withdrawRecords) || type === 'withdraw' ? 'withdraw' : 'recharge';
  const raw = Number(params.get('page'));
  const page = Number.isInteger(raw) && raw >= 1 ? raw : 1;
  const input = { page, limit: PAGE_SIZE };

  const [polling, setPolling] = useState(false);
  const every = polling ? POLL_MS.accountInfo : 0;
  const recharge = useWatch('rechargeRecords', tab === 'recharge' ? input : null, every);
  const withdraw = useWatch('withdrawRecords', tab === 'withdraw' ? input : null, every);
  const list = tab === 'recharge' ? recharge : withdraw;
  const rows = list.data?.rows;
  const pages = list.data ? Math.max(1, Math.ceil(list.data.count / PAGE_SIZE)) : 1;
  const pending = rows?.some(isPending) ?? false;
  useEffect(() => setPolling(pending), [pending]);
  // A page past the end (an old link, fewer records now) shows the last page instead of nothing.
  const beyond = list.data !== undefined && page > pages;
  useEffect(() => {
    if (beyond) setParams(pages <= 1 ? {} : { page: String(pages) }, { replace: true });
  }, [beyond, pages, setParams]);

  return {
    tab,
    page,
    pages,
    list,
    rows,
    setPage: (next: number) => setParams(next <= 1 ? {} : { page: String(next) }),
  };
}
