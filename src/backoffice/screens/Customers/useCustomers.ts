import { useState } from 'react';
import { KYC_STATUS } from '../../../shared/status';
import { useOps } from '../../hooks';

export type Filter = 'all' | 'none' | 'review' | 'approved' | 'rejected';
const FILTERS: Record<Filter, number | undefined> = {
  all: undefined,
  none: KYC_STATUS.none,
  review: KYC_STATUS.underReview,
  approved: KYC_STATUS.approved,
  rejected: KYC_STATUS.rejected,
};

/**
 * The customer list's data (reads only): the real-name filter and the page. Pages go forward by
 * the server's cursor (`next`) and back by the cursors already seen; a new filter starts again
 * from the newest.
 */
export function useCustomers() {
  const [filter, setFilter] = useState<Filter>('all');
  // The `before` of each page shown so far: the last is this page's.
  const [cursors, setCursors] = useState<Array<number | undefined>>([undefined]);
  const before = cursors[cursors.length - 1];
  const kyc = FILTERS[filter];
  const page = useOps('customerList', {
    ...(kyc === undefined ? {} : { kyc }),
    ...(before === undefined ? {} : { before }),
  });
  const next = page.data?.next;
  return {
    filter,
    choose: (f: Filter) => {
      setFilter(f);
      setCursors([undefined]);
    },
    rows: page.data?.rows ?? [],
    loading: page.loading,
    error: page.error,
    /** Which page this is, from the newest (1). */
    pageNo: cursors.length,
    newer: cursors.length > 1 ? () => setCursors(cursors.slice(0, -1)) : null,
    older: next ? () => setCursors([...cursors, next]) : null,
  };
}
