import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../paths';
import type { OrderRow } from '../../shared/contract/trading';
import { LotSellDialog } from '../_parts/invest/LotSellDialog';
import { OrderCard } from '../_parts/invest/OrderCard';
import { OrdersPage } from '../_parts/invest/OrdersPage';
import type { BlockMold } from '../BlockTrading/useBlockTrading';
import { type BlockTab, blockOrderStatus, useBlockOrders } from './useBlockOrders';

/** Block trading orders (SPEC §2, /block-trading/orders): tabs all, failed, success. */
export default function BlockOrdersScreen() {
  return <BlockOrders mold="bulk" />;
}

const TEXT = {
  bulk: { title: 'block.ordersTitle', back: PATHS.blockTrading },
  finalize: { title: 'qip.ordersTitle', back: PATHS.qip },
} as const;

export function BlockOrders({ mold }: { mold: BlockMold }) {
  const { t } = useTranslation();
  const { tab, setTab, orders } = useBlockOrders(mold);
  const [selling, setSelling] = useState<OrderRow | null>(null);
  const text = TEXT[mold];

  return (
    <OrdersPage<BlockTab, OrderRow>
      title={t(text.title)}
      back={text.back}
      tabId={`${mold}-tab`}
      tab={tab}
      onTab={setTab}
      tabs={[
        { value: '0', label: t('block.tabs.all') },
        { value: '2', label: t('block.tabs.failed') },
        { value: '1', label: t('block.tabs.success') },
      ]}
      orders={orders}
      empty={t('block.emptyOrders')}
      card={(order) => {
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
      }}
    >
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
    </OrdersPage>
  );
}
