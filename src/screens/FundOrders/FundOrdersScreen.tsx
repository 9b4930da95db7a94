import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { FundOrder } from '../../shared/contract/funds';
import { formatMoney, formatNumber } from '../../shared/format';
import { Button, ConfirmDialog, StatusChip, ui, useDates } from '../../ui';
import s from '../_parts/funds/funds.module.css';
import { fundOrderStatus, useNavDate } from '../_parts/funds/labels';
import inv from '../_parts/invest/invest.module.css';
import { OrdersPage } from '../_parts/invest/OrdersPage';
import { Stat } from '../_parts/invest/parts';
import { type FundTab, useFundOrders } from './useFundOrders';

/**
 * Fund orders (SPEC §2): tabs all, pending, completed, cancelled; each order as the server last
 * struck it — its units, NAV and charges, or the NAV it waits for and until when it can be cancelled.
 */
export default function FundOrdersScreen() {
  const { t } = useTranslation();
  const config = useConfig();
  const f = useFundOrders();

  return (
    <OrdersPage<FundTab, FundOrder>
      title={t('fund.ordersTitle')}
      back={PATHS.funds}
      tabId="fund-tab"
      tab={f.tab}
      onTab={f.setTab}
      tabs={f.tabs.map((value) => ({ value, label: t(`fund.tabs.${value}`) }))}
      orders={f.orders}
      empty={t('fund.emptyOrders')}
      card={(order) => <FundOrderCard key={order.id} order={order} onCancel={() => f.setCancelling(order)} />}
    >
      <ConfirmDialog
        open={f.cancelling !== null}
        title={t('fund.cancelTitle')}
        message={
          f.cancelling &&
          (f.cancelling.side === 'buy'
            ? t('fund.cancelBuy', { amount: formatMoney(f.cancelling.amount, config.currency) })
            : t('fund.cancelRedeem'))
        }
        confirmLabel={t('fund.cancel')}
        danger
        money={f.cancelCall}
        busy={f.busy}
        onCancel={() => f.setCancelling(null)}
        onConfirm={() => void f.cancel()}
      />
    </OrdersPage>
  );
}

function FundOrderCard({ order, onCancel }: { order: FundOrder; onCancel: () => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { dateTime, exchange } = useDates();
  const navDate = useNavDate();
  const status = fundOrderStatus(order);
  const money = (amount: string) => formatMoney(amount, config.currency);
  const pending = order.status === 'active';
  const units = order.units === null ? null : formatNumber(Number(order.units), 3);
  return (
    <li className={`${inv.card} ${s.orderCard}`} data-fund-order={order.id}>
      <div className={inv.cardTop}>
        <div className={inv.titleBlock}>
          <span className={inv.sub}>
            <span className={`${inv.side} ${order.side === 'redeem' ? inv.sideSell : inv.sideBuy}`}>
              {t(`fund.side.${order.side}`)}
            </span>
            <span>
              {t('fund.navDate')}: {navDate(order.nav_date)}
            </span>
          </span>
          <h2 className={inv.name}>{order.project.name}</h2>
        </div>
        <StatusChip tone={status.tone}>{t(status.key)}</StatusChip>
      </div>
      {order.side === 'term' ? (
        <p className={s.termNote}>
          {t('fund.termNote', { amount: money(order.amount), profit: money(order.profit ?? '0.00') })}
        </p>
      ) : (
        <dl className={`${ui.statRow} ${inv.stats} ${inv.stats3}`}>
          {order.side === 'buy' && (
            <Stat label={t('fund.paid')} strong>
              {money(order.amount)}
            </Stat>
          )}
          {units !== null && (
            <Stat label={t('fund.units')}>
              <span className="num">{units}</span>
            </Stat>
          )}
          {order.nav !== null && (
            <Stat label={t('fund.nav')}>
              <span className="num">{formatNumber(Number(order.nav), 4)}</span>
            </Stat>
          )}
          {order.side === 'buy' && order.status === 'completed' && (
            <Stat label={t('fund.stampDuty')}>{money(order.stamp_duty)}</Stat>
          )}
          {order.side === 'redeem' && order.value !== null && (
            <Stat label={t('fund.valueAtNav')}>{money(order.value)}</Stat>
          )}
          {order.side === 'redeem' && order.exit_load !== '0.00' && (
            <Stat label={t('fund.exitLoad')}>{money(order.exit_load)}</Stat>
          )}
          {order.side === 'redeem' && order.stt !== '0.00' && <Stat label="STT">{money(order.stt)}</Stat>}
          {order.side === 'redeem' && order.status === 'completed' && (
            <Stat label={t('fund.credited')} strong>
              {money(order.amount)}
            </Stat>
          )}
        </dl>
      )}
      {pending && (
        <div className={s.pendingRow}>
          <span>
            {t('fund.publishedBy', { time: exchange(order.end_time, 'NSE', 'weekdayClock') })}
            {order.cancel_until !== null && (
              <>
                {' · '}
                {t('fund.cancelUntil', { time: exchange(order.cancel_until, 'NSE', 'weekdayClock') })}
              </>
            )}
          </span>
          {order.cancel_until !== null && (
            <Button variant="ghost" onClick={onCancel}>
              {t('fund.cancel')}
            </Button>
          )}
        </div>
      )}
      <div className={inv.foot}>
        <span>{t('fund.placedAt')}</span>
        <time dateTime={new Date(order.created_at).toISOString()}>{dateTime(order.created_at)}</time>
      </div>
    </li>
  );
}
