import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { OrderRow } from '../../shared/contract/trading';
import { formatMoney } from '../../shared/format';
import { IPO_STATUS } from '../../shared/status';
import { LotSellDialog } from '../_parts/invest/LotSellDialog';
import { OrdersPage } from '../_parts/invest/OrdersPage';
import { ContractNoteSheet } from '../_parts/trading/ContractNoteSheet';
import { OrderDetailSheet } from '../_parts/trading/OrderDetailSheet';
import { OrderLine } from '../_parts/trading/OrderLine';
import o from '../_parts/trading/orders.module.css';
import { type IpoTab, useIpoOrders } from './useIpoOrders';

/**
 * IPO orders (SPEC §2): applications and sales, one row each as every order list shows it
 * (OrderLine); allotted shares are sold from a row's detail.
 */
export default function IpoOrdersScreen() {
  const { t } = useTranslation();
  const { tab, setTab, orders } = useIpoOrders();
  const [detail, setDetail] = useState<OrderRow | null>(null);
  const [selling, setSelling] = useState<OrderRow | null>(null);
  const [noteFor, setNoteFor] = useState<string | null>(null);
  const { currency } = useConfig();
  // The order as the list has it now (reloaded after a sale).
  const shown = detail && (orders.data?.rows.find((r) => r.id === detail.id) ?? detail);
  /**
   * An application's money is blocked in the balance until allotment (the server's ipoFreeze), and
   * released when nothing is allotted (ipoRefund): its detail says which.
   */
  const moneyNote = (order: OrderRow): string | undefined => {
    if (order.state !== 'buy') return undefined;
    const amount = formatMoney(order.price_all, currency);
    if (order.status === IPO_STATUS.pending) return t('ipo.blockedNote', { amount });
    if (order.status === IPO_STATUS.refunded) return t('ipo.releasedNote', { amount });
    return undefined;
  };

  return (
    <OrdersPage<IpoTab, OrderRow>
      title={t('ipo.ordersTitle')}
      back={PATHS.ipo}
      tabId="ipo-tab"
      tab={tab}
      onTab={setTab}
      tabs={[
        { value: '0', label: t('ipo.tabs.applications') },
        { value: '1', label: t('ipo.tabs.sales') },
      ]}
      orders={orders}
      empty={t(tab === '1' ? 'ipo.emptySales' : 'ipo.emptyApplications')}
      listClassName={o.list}
      skeletonHeight={64}
      card={(order) => <OrderLine key={order.id} order={order} onOpen={setDetail} />}
    >
      <OrderDetailSheet
        order={shown}
        onClose={() => setDetail(null)}
        actions={{ sell: setSelling, note: setNoteFor }}
        note={shown ? moneyNote(shown) : undefined}
      />
      <ContractNoteSheet no={noteFor} onClose={() => setNoteFor(null)} />
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
    </OrdersPage>
  );
}
