import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { OrderRow } from '../../shared/contract/trading';
import { formatMoney } from '../../shared/format';
import { IPO_STATUS } from '../../shared/status';
import { LotSellDialog } from '../_parts/invest/LotSellDialog';
import { OrderCard } from '../_parts/invest/OrderCard';
import { OrdersPage } from '../_parts/invest/OrdersPage';
import { type IpoTab, ipoOrderStatus, showsQuantity, useIpoOrders } from './useIpoOrders';

/** IPO orders (SPEC §2): applications and sales; allotted shares are sold from here. */
export default function IpoOrdersScreen() {
  const { t } = useTranslation();
  const { tab, setTab, orders } = useIpoOrders();
  const [selling, setSelling] = useState<OrderRow | null>(null);
  const { currency } = useConfig();
  /**
   * Issue 30 §3: an application's money is blocked in the balance until allotment (the server's
   * ipoFreeze), and released when nothing is allotted (ipoRefund): each card says which.
   */
  const moneyNote = (order: OrderRow): string | undefined => {
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
      card={(order) => {
        const status = ipoOrderStatus(order, tab);
        return (
          <OrderCard
            key={order.id}
            order={order}
            status={{ label: t(status.key), tone: status.tone }}
            showQuantity={showsQuantity(order)}
            onSell={tab === '0' ? setSelling : undefined}
            note={tab === '0' ? moneyNote(order) : undefined}
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
            setTab('1');
          }}
        />
      )}
    </OrdersPage>
  );
}
