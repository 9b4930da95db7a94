import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderRow } from '../../shared/contract/trading';
import { AsOf, EmptyState, ErrorState, PageHeader, SkeletonList, Tabs } from '../../ui';
import s from '../invest/invest.module.css';
import { LotSellDialog } from '../invest/LotSellDialog';
import { OrderCard } from '../invest/OrderCard';
import { type IpoTab, ipoOrderStatus, showsQuantity, useIpoOrders } from './useIpoOrders';

/** IPO orders (SPEC §2): applications and sales; allotted shares are sold from here. */
export default function IpoOrdersScreen() {
  const { t } = useTranslation();
  const { tab, setTab, orders } = useIpoOrders();
  const [selling, setSelling] = useState<OrderRow | null>(null);
  const rows = orders.data?.rows;

  return (
    <main className={s.page}>
      <PageHeader title={t('ipo.ordersTitle')} back="/ipo" />
      <div className={s.sticky}>
        <Tabs<IpoTab>
          id="ipo-tab"
          label={t('ipo.ordersTitle')}
          value={tab}
          onChange={setTab}
          items={[
            { value: '0', label: t('ipo.tabs.applications') },
            { value: '1', label: t('ipo.tabs.sales') },
          ]}
        />
      </div>
      <section role="tabpanel" aria-labelledby={`ipo-tab-${tab}`}>
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
          <EmptyState title={t(tab === '1' ? 'ipo.emptySales' : 'ipo.emptyApplications')} />
        ) : (
          <ul className={s.list} style={{ listStyle: 'none', margin: 0 }}>
            {rows.map((order) => {
              const status = ipoOrderStatus(order, tab);
              return (
                <OrderCard
                  key={order.id}
                  order={order}
                  status={{ label: t(status.key), tone: status.tone }}
                  showQuantity={showsQuantity(order)}
                  onSell={tab === '0' ? setSelling : undefined}
                />
              );
            })}
          </ul>
        )}
      </section>
      {selling && (
        <LotSellDialog
          order={selling}
          onClose={() => setSelling(null)}
          onDone={() => {
            setSelling(null);
            orders.reload();
            setTab('1');
          }}
        />
      )}
    </main>
  );
}
