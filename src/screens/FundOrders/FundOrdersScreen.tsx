import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import type { FundOrder } from '../../shared/contract/invest';
import { formatMoney, formatNumber } from '../../shared/format';
import { fundPeriod } from '../../shared/rules';
import { AsOf, EmptyState, ErrorState, PageHeader, SkeletonList, Tabs } from '../../ui';
import s from '../invest/invest.module.css';
import { SignedMoney, Stat, StatusChip, useDates } from '../invest/parts';
import { type FundTab, fundOrderStatus, useFundOrders } from './useFundOrders';

/** Fund orders (SPEC §2): tabs all, active, completed, cancelled. */
export default function FundOrdersScreen() {
  const { t } = useTranslation();
  const { tab, tabs, setTab, orders } = useFundOrders();
  const rows = orders.data?.rows;

  return (
    <main className={s.page}>
      <PageHeader title={t('fund.ordersTitle')} back="/fund-investment" />
      <div className={s.sticky}>
        <Tabs<FundTab>
          id="fund-tab"
          label={t('fund.ordersTitle')}
          value={tab}
          onChange={setTab}
          items={tabs.map((value) => ({ value, label: t(`fund.tabs.${value}`) }))}
        />
      </div>
      <section role="tabpanel" aria-labelledby={`fund-tab-${tab}`}>
        {orders.stale && (
          <div className={s.rateNote}>
            <AsOf at={orders.updatedAt} stale />
          </div>
        )}
        {rows === undefined ? (
          orders.error ? (
            <ErrorState message={t(orders.error)} onRetry={orders.reload} />
          ) : (
            <SkeletonList rows={4} height={150} />
          )
        ) : rows.length === 0 ? (
          <EmptyState title={t('fund.emptyOrders')} />
        ) : (
          <ul className={s.list} style={{ listStyle: 'none', margin: 0 }}>
            {rows.map((order) => (
              <FundOrderCard key={order.id} order={order} />
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

function FundOrderCard({ order }: { order: FundOrder }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { dateTime } = useDates();
  const status = fundOrderStatus(order.status);
  const period = fundPeriod(order.project.investment_period);
  return (
    <li className={s.card} data-fund-order={order.id}>
      <div className={s.cardTop}>
        <h2 className={s.name}>{order.project.name}</h2>
        <StatusChip tone={status.tone}>{t(status.key)}</StatusChip>
      </div>
      <dl className={s.stats}>
        <Stat label={t('fund.amount')} strong>
          {formatMoney(order.amount, config.currency)}
        </Stat>
        <Stat label={t('fund.period')}>
          {t(period.unit === 'days' ? 'fund.days' : 'fund.months', { count: period.count })}
        </Stat>
        <Stat label={t('fund.expectedReturn')}>{formatNumber(order.expected_return)}%</Stat>
        <Stat label={t('fund.projectReturn')}>
          {formatNumber(order.project.min_return)}% – {formatNumber(order.project.max_return)}%
        </Stat>
        {order.profit !== null && (
          <Stat label={t('fund.profit')}>
            <SignedMoney amount={order.profit} currency={config.currency} />
          </Stat>
        )}
        <Stat label={t('fund.endTime')}>
          <time dateTime={new Date(order.end_time).toISOString()}>{dateTime(order.end_time)}</time>
        </Stat>
      </dl>
      <div className={s.foot}>
        <span>{t('fund.createdAt')}</span>
        <time dateTime={new Date(order.created_at).toISOString()}>{dateTime(order.created_at)}</time>
      </div>
    </li>
  );
}
