import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../paths';
import type { OrderRow } from '../../shared/contract/trading';
import { LotSellDialog } from '../_parts/invest/LotSellDialog';
import { OrdersPage } from '../_parts/invest/OrdersPage';
import { ContractNoteSheet } from '../_parts/trading/ContractNoteSheet';
import { OrderDetailSheet } from '../_parts/trading/OrderDetailSheet';
import { OrderLine } from '../_parts/trading/OrderLine';
import o from '../_parts/trading/orders.module.css';
import type { BlockMold } from '../BlockTrading/useBlockTrading';
import { type BlockTab, useBlockOrders } from './useBlockOrders';

/** Block trading orders (SPEC §2, /block-trading/orders): tabs all, failed, success. */
export default function BlockOrdersScreen() {
  return <BlockOrders mold="bulk" />;
}

const TEXT = {
  bulk: { title: 'block.ordersTitle', back: PATHS.blockTrading },
  finalize: { title: 'qip.ordersTitle', back: PATHS.qip },
} as const;

/**
 * Block or QIP orders: one row per order as every order list shows it (OrderLine); a row opens its
 * detail, with the lot's lock-in, its contract note and its sale.
 */
export function BlockOrders({ mold }: { mold: BlockMold }) {
  const { t } = useTranslation();
  const { tab, setTab, orders } = useBlockOrders(mold);
  const [detail, setDetail] = useState<OrderRow | null>(null);
  const [selling, setSelling] = useState<OrderRow | null>(null);
  const [noteFor, setNoteFor] = useState<string | null>(null);
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
      listClassName={o.list}
      skeletonHeight={64}
      card={(order) => <OrderLine key={order.id} order={order} onOpen={setDetail} />}
    >
      <OrderDetailSheet
        // The order as the list has it now (reloaded after a sale).
        order={(detail && orders.data?.rows.find((r) => r.id === detail.id)) ?? detail}
        onClose={() => setDetail(null)}
        actions={{ sell: setSelling, note: setNoteFor }}
      />
      <ContractNoteSheet no={noteFor} onClose={() => setNoteFor(null)} />
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
