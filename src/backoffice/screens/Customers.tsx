import { useState } from 'react';
import { Link } from 'react-router-dom';
import { KYC_STATUS } from '../../shared/status';
import { KYC_LABEL, rupees, when } from '../format';
import { useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { Badge, Button, Card, Empty, ErrorLine, PageHead, css as s, Tabs } from '../ui';

/**
 * Every customer, newest first, 50 a page, filtered by real-name status: the desk's way to look
 * over sign-ups where the search box needs something to type. Pages go forward by the server's
 * cursor (`next`) and back by the cursors already seen.
 */

type Filter = 'all' | 'none' | 'review' | 'approved' | 'rejected';
const FILTERS: Record<Filter, number | undefined> = {
  all: undefined,
  none: KYC_STATUS.none,
  review: KYC_STATUS.underReview,
  approved: KYC_STATUS.approved,
  rejected: KYC_STATUS.rejected,
};
const TONE: Record<number, 'ok' | 'danger' | 'warn' | undefined> = {
  [KYC_STATUS.approved]: 'ok',
  [KYC_STATUS.rejected]: 'danger',
  [KYC_STATUS.underReview]: 'warn',
};

export function Customers() {
  const [filter, setFilter] = useState<Filter>('all');
  // The `before` of each page shown so far: the last is this page's.
  const [cursors, setCursors] = useState<Array<number | undefined>>([undefined]);
  const before = cursors[cursors.length - 1];
  const kyc = FILTERS[filter];
  const page = useOps('customerList', {
    ...(kyc === undefined ? {} : { kyc }),
    ...(before === undefined ? {} : { before }),
  });
  const rows = page.data?.rows ?? [];
  const choose = (f: Filter) => {
    setFilter(f);
    setCursors([undefined]);
  };
  return (
    <>
      <PageHead
        title="Customers"
        subtitle="Newest first. Search by phone, card, PAN or name from the bar above."
      />
      <ErrorLine error={page.error} />
      <Tabs<Filter>
        label="Real-name status"
        value={filter}
        onChange={choose}
        options={[
          ['all', 'All'],
          ['none', KYC_LABEL[KYC_STATUS.none]!],
          ['review', KYC_LABEL[KYC_STATUS.underReview]!],
          ['approved', KYC_LABEL[KYC_STATUS.approved]!],
          ['rejected', KYC_LABEL[KYC_STATUS.rejected]!],
        ]}
      />
      <Card title={`Page ${cursors.length}`} flush>
        {rows.length === 0 ? (
          <Empty>{page.loading ? 'Loading…' : 'No customer here.'}</Empty>
        ) : (
          <table className={s.table}>
            <thead>
              <tr>
                <th>Customer</th>
                <th>Account</th>
                <th>Real-name</th>
                <th className={s.num}>Balance</th>
                <th className={s.num}>Joined</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>
                    <Link className={s.strong} to={OPS_PATHS.customer(c.id)}>
                      {c.name ?? c.phone}
                    </Link>
                    {c.name && <div className={`${s.small} ${s.muted} ${s.mono}`}>{c.phone}</div>}
                  </td>
                  <td className={s.mono}>{c.no}</td>
                  <td>
                    <Badge tone={TONE[c.kycStatus]}>{KYC_LABEL[c.kycStatus]}</Badge>
                  </td>
                  <td className={s.num}>{rupees(c.balance)}</td>
                  <td className={s.num}>{when(c.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <div className={s.row}>
        <Button disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </Button>
        <Button
          disabled={!page.data?.next}
          onClick={() => page.data?.next && setCursors([...cursors, page.data.next])}
        >
          Older
        </Button>
      </div>
    </>
  );
}
