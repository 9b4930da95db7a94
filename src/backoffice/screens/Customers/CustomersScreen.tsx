import { Link } from 'react-router-dom';
import { KYC_STATUS } from '../../../shared/status';
import { KYC_LABEL, rupees, when } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Badge, Button, Card, Empty, ErrorLine, PageHead, css as s, Tabs } from '../../ui';
import { type Filter, useCustomers } from './useCustomers';

/**
 * Every customer, newest first, 50 a page, filtered by real-name status: the desk's way to look
 * over sign-ups where the search box needs something to type. Pages go forward by the server's
 * cursor (`next`) and back by the cursors already seen (useCustomers).
 */

const TONE: Record<number, 'ok' | 'danger' | 'warn' | undefined> = {
  [KYC_STATUS.approved]: 'ok',
  [KYC_STATUS.rejected]: 'danger',
  [KYC_STATUS.underReview]: 'warn',
};

export function CustomersScreen() {
  const c = useCustomers();
  const { rows } = c;
  return (
    <>
      <PageHead
        title="Customers"
        subtitle="Newest first. Search by phone, card, PAN or name from the bar above."
      />
      <ErrorLine error={c.error} />
      <Tabs<Filter>
        label="Real-name status"
        value={c.filter}
        onChange={c.choose}
        options={[
          ['all', 'All'],
          ['none', KYC_LABEL[KYC_STATUS.none]!],
          ['review', KYC_LABEL[KYC_STATUS.underReview]!],
          ['approved', KYC_LABEL[KYC_STATUS.approved]!],
          ['rejected', KYC_LABEL[KYC_STATUS.rejected]!],
        ]}
      />
      <Card title={`Page ${c.pageNo}`} flush>
        {rows.length === 0 ? (
          <Empty>{c.loading ? 'Loading…' : 'No customer here.'}</Empty>
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
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    <Link className={s.strong} to={OPS_PATHS.customer(row.id)}>
                      {row.name ?? row.phone}
                    </Link>
                    {row.name && <div className={`${s.small} ${s.muted} ${s.mono}`}>{row.phone}</div>}
                  </td>
                  <td className={s.mono}>{row.no}</td>
                  <td>
                    <Badge tone={TONE[row.kycStatus]}>{KYC_LABEL[row.kycStatus]}</Badge>
                  </td>
                  <td className={s.num}>{rupees(row.balance)}</td>
                  <td className={s.num}>{when(row.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <div className={s.row}>
        <Button disabled={!c.newer} onClick={() => c.newer?.()}>
          Newer
        </Button>
        <Button disabled={!c.older} onClick={() => c.older?.()}>
          Older
        </Button>
      </div>
    </>
  );
}
