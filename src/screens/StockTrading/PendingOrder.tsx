import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import type { OrderRow } from '../../shared/contract/trading';
import { formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { displayCode } from '../../shared/rules';
import { Button, useDates } from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { regionPrice } from '../_parts/invest/parts';
import { ORDER_TYPE_LABEL } from '../_parts/trading/ModifyOrderSheet';
import { useOcoTexts } from '../_parts/trading/oco';
import s from './trading.module.css';

const TYPE_LABEL = ORDER_TYPE_LABEL;

/** A pending order in this symbol, with Modify and Cancel (the same sheets as the orders screen). */
export function PendingOrder({
  order,
  decimals,
  onCancel,
  onModify,
}: {
  order: OrderRow;
  decimals: number;
  onCancel: (o: OrderRow) => void;
  onModify: (o: OrderRow) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const oco = useOcoTexts()(order);
  const code = displayCode(order.tag);
  return (
    <li className={s.pendingRow} data-order={order.no}>
      <span className={`${inv.side} ${order.state === 'sell' ? inv.sideSell : inv.sideBuy}`}>
        {t(order.state === 'sell' ? 'trade.sell' : 'trade.buy')}
      </span>
      <span className={`num ${s.pendingText}`}>
        {oco ? (
          <>
            {t(TYPE_LABEL.oco)} · {oco.fired ? `${t('records.triggeredAt')} ${oco.fired}` : oco.short} ·{' '}
          </>
        ) : (
          order.order_type &&
          order.trigger_price !== null && (
            <>
              {t(TYPE_LABEL[order.order_type])} ·{' '}
              {t(order.triggered_at ? 'trade.stop.triggered' : 'trade.stop.at', {
                price: regionPrice(config, order.type, order.trigger_price ?? 0, decimals),
              })}{' '}
              ·{' '}
            </>
          )
        )}
        {order.amo && order.send_at !== null && (
          <span data-testid="pending-amo">
            {t('records.amo')} ·{' '}
            {exchange(order.send_at, scheduleOf(order.market, order.type), 'weekdayClock')} ·{' '}
          </span>
        )}
        {formatNumber(order.count, 0)} @{' '}
        {regionPrice(config, order.type, order.limit_price ?? order.price, decimals)}
      </span>
      <span className={s.pendingActions}>
        <Button
          variant="ghost"
          className={s.cancelButton}
          onClick={() => onModify(order)}
          aria-label={t('records.modify.for', { code })}
        >
          {t('records.modify.open')}
        </Button>
        <Button
          variant="ghost"
          className={s.cancelButton}
          onClick={() => onCancel(order)}
          aria-label={t('records.cancelFor', { code })}
        >
          {t('records.cancel')}
        </Button>
      </span>
    </li>
  );
}
