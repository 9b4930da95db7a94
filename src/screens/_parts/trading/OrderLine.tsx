import { useTranslation } from 'react-i18next';
import { currencyFor, useConfig } from '../../../api/useConfig';
import type { OrderRow } from '../../../shared/contract/trading';
import { formatQuantity } from '../../../shared/format';
import { displayCode } from '../../../shared/rules';
import { StatusChip } from '../../../ui';
import { orderLine, priceAsMoney } from './orderLine';
import s from './orders.module.css';

/**
 * One order in a list, every mold alike (stock, block, QIP, IPO): side and code, price, then type ·
 * product · validity · filled/quantity and the status the server left it in, with the reason an
 * unfilled order ended. Two lines, so a phone shows about eight; tapping opens its detail.
 */
export function OrderLine({ order, onOpen }: { order: OrderRow; onOpen: (order: OrderRow) => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const line = orderLine(order);
  const sell = order.state === 'sell';
  const code = displayCode(order.tag);
  const currency = currencyFor(config, order.type);
  return (
    <li className={s.row} data-order={order.no} data-outcome={line.outcome}>
      <button type="button" className={s.rowButton} aria-haspopup="dialog" onClick={() => onOpen(order)}>
        <span className={s.line}>
          <span className={`${s.side} ${sell ? s.sideSell : s.sideBuy}`}>
            {t(sell ? 'trade.sell' : 'trade.buy')}
          </span>
          <span className={s.code}>{code}</span>
          <span className={`${s.price} num`} data-testid="order-price">
            {line.price === null ? '—' : priceAsMoney(line.price, currency)}
          </span>
        </span>
        <span className={s.line}>
          <span className={s.facts}>
            <span data-testid="order-type">{t(line.typeKey)}</span>
            <span data-testid="order-product">{t(line.productKey)}</span>
            {line.validityKey && <span data-testid="order-validity">{t(line.validityKey)}</span>}
            {order.amo && line.outcome === 'pending' && (
              <span data-testid="order-amo">{t('records.amo')}</span>
            )}
            <span className="num" data-testid="order-filled">
              {line.count === null
                ? '—'
                : t('records.row.filled', {
                    filled: formatQuantity(line.filled, currency.unit),
                    count: formatQuantity(line.count, currency.unit),
                  })}
            </span>
          </span>
          <StatusChip tone={line.tone}>
            <span data-testid="order-status">{t(line.statusKey)}</span>
          </StatusChip>
        </span>
        {line.shortReasonKey && (
          <span className={s.reason} data-testid="order-reason">
            {t(line.shortReasonKey)}
          </span>
        )}
      </button>
    </li>
  );
}
