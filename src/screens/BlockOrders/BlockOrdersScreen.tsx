import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderRow } from '../../shared/contract/trading';
import { AsOf, EmptyState, ErrorState, PageHeader, SkeletonList, Tabs } from '../../ui';
import type { BlockMold } from '../BlockTrading/useBlockTrading';
import s from '../invest/invest.module.css';
import { LotSellDialog } from '../invest/LotSellDialog';
import { OrderCard } from '../invest/OrderCard';
import { type BlockTab, blockOrderStatus, useBlockOrders } from './useBlockOrders';

/** Block trading orders (SPEC §2, /block-trading/orders): tabs all, failed, success. */
export default function BlockOrdersScreen() {
  return <BlockOrders mold="bulk" />;
}

const TEXT = {
  bulk: { title: 'block.ordersTitle', back: '/block-trading' },
  finalize: { title: 'qip.ordersTitle', back: '/qip' },
} as const;

export function BlockOrders({ mold }: { mold: BlockMold }) {
  const { t } = useTranslation();
  const { tab, setTab, orders } = useBlockOrders(mold);
  const [selling, setSelling] = useState<OrderRow | null>(null);
  const rows = orders.data?.rows;
  const text = TEXT[mold];

  return (
    <main className={s.page}>
      <PageHeader title={t(text.title)} back={text.back} />
      <div className={s.sticky}>
        <Tabs<BlockTab>
          id={`${mold}-tab`}
          label={t(text.title)}
          value={tab}
          onChange={setTab}
          items={[
            { value: '0', label: t('block.tabs.all') },
            { value: '2', label: t('block.tabs.failed') },
            { value: '1', label: t('block.tabs.success') },
          ]}
        />
      </div>
      <section role="tabpanel" aria-labelledby={`${mold}-tab-${tab}`}>
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
          <EmptyState title={t('block.emptyOrders')} />
        ) : (
          <ul className={s.list} style={{ listStyle: 'none', margin: 0 }}>
            {rows.map((order) => {
              const status = blockOrderStatus(order);
              return (
                <OrderCard
                  key={order.id}
                  order={order}
                  status={{ label: t(status.key), tone: status.tone }}
                  showQuantity
                  onSell={setSelling}
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
          }}
        />
      )}
    </main>
  );
}
