import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { FundOrder } from '../../shared/contract/invest';
import { formatMoney, formatNumber } from '../../shared/format';
import { fundPeriod } from '../../shared/rules';
import { StatusChip, useDates } from '../../ui';
import s from '../_parts/invest/invest.module.css';
import { OrdersPage } from '../_parts/invest/OrdersPage';
import { SignedMoney, Stat } from '../_parts/invest/parts';
import { type FundTab, fundOrderStatus, useFundOrders } from './useFundOrders';

/** Fund orders (SPEC §2): tabs all, active, completed, cancelled. */
export default function FundOrdersScreen() {
  const { t } = useTranslation();
  const { tab, tabs, setTab, orders } = useFundOrders();

  return (
    <OrdersPage<FundTab, FundOrder>
      title={t('fund.ordersTitle')}
      back={PATHS.funds}
      tabId="fund-tab"
      tab={tab}
      onTab={setTab}
      tabs={tabs.map((value) => ({ value, label: t(`fund.tabs.${value}`) }))}
      orders={orders}
      empty={t('fund.emptyOrders')}
      card={(order) => <FundOrderCard key={order.id} order={order} />}
    />
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
