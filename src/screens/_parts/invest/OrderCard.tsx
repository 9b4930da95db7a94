import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../../api/useConfig';
import { stockPath } from '../../../paths';
import type { OrderRow } from '../../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../../shared/format';
import { toMinor } from '../../../shared/money';
import { displayCode } from '../../../shared/rules';
import { Button, IconLock, StatusChip, type Tone, useDates } from '../../../ui';
import s from './invest.module.css';
import { regionPrice, SignedMoney, Stat } from './parts';

/**
 * One IPO or block/QIP order (SPEC §2 IPO orders row): market, code without .BO/.NS, buy/sell,
 * order number, quantity where the caller says so, price, for sells the sell price and
 * profit/loss, total (for a refused block/QIP buy, the reason instead), status and created time. The card opens stock detail; a lot still held can
 * be sold from its own button.
 */
export function OrderCard({
  order,
  status,
  showQuantity,
  onSell,
  note,
}: {
  order: OrderRow;
  status: { label: string; tone: Tone };
  showQuantity: boolean;
  onSell?: (order: OrderRow) => void;
  /** A line under the card (an IPO application's amount blocked or released). */
  note?: string;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { dateTime } = useDates();
  const sell = order.state === 'sell';
  const fee = toMinor(order.fee) ?? 0;
  return (
    <li className={s.card} data-order={order.no}>
      <Link to={stockPath(order.tag, order.name)} className={s.cardLink}>
        <div className={s.cardTop}>
          <div className={s.titleBlock}>
            <span className={s.sub}>
              <span className={s.tag}>{order.market}</span>
              <span className={s.name}>{displayCode(order.tag)}</span>
              <span className={`${s.side} ${sell ? s.sideSell : s.sideBuy}`}>
                {t(sell ? 'ipo.order.sell' : 'ipo.order.buy')}
              </span>
            </span>
            <span className={s.sub}>{order.name}</span>
          </div>
          <StatusChip tone={status.tone}>{status.label}</StatusChip>
        </div>
        <dl className={s.stats}>
          {showQuantity && <Stat label={t('ipo.order.quantity')}>{formatNumber(order.count, 0)}</Stat>}
          <Stat label={t('ipo.order.price')}>{regionPrice(config, order.type, order.price)}</Stat>
          {sell && order.sell_price !== null && (
            <Stat label={t('ipo.order.sellPrice')}>{regionPrice(config, order.type, order.sell_price)}</Stat>
          )}
          {sell && order.profit !== null && (
            <Stat label={t('ipo.order.profit')}>
              <SignedMoney amount={order.profit} currency={config.currency} />
            </Stat>
          )}
          {fee > 0 && <Stat label={t('ipo.order.fee')}>{formatMoney(order.fee, config.currency)}</Stat>}
          {order.reason ? (
            // A refused block/QIP buy moved no money: why it failed is the figure that matters.
            <Stat label={t('ipo.order.reason')} strong>
              {t(order.reason)}
            </Stat>
          ) : (
            <Stat label={t('ipo.order.total')} strong>
              {formatMoney(order.price_all, config.currency)}
            </Stat>
          )}
        </dl>
        <div className={s.foot}>
          <span>
            {t('ipo.order.no')} <span className={s.orderNo}>{order.no}</span>
          </span>
          <time dateTime={new Date(order.created_at).toISOString()}>{dateTime(order.created_at)}</time>
        </div>
      </Link>
      {note && (
        <p className={s.lockNote} data-testid="order-note">
          <IconLock size={16} aria-hidden />
          <span>{note}</span>
        </p>
      )}
      {order.unlock_at !== null && (
        <p className={s.lockNote} data-testid="unlock-at">
          <IconLock size={16} aria-hidden />
          <span>{t('ipo.order.unlocksAt', { date: dateTime(order.unlock_at) })}</span>
        </p>
      )}
      {onSell && order.sellable && (
        <Button
          variant="sell"
          className={s.sellButton}
          onClick={() => onSell(order)}
          aria-label={t('ipo.sell.actionFor', { code: displayCode(order.tag) })}
        >
          {t('ipo.sell.action')}
        </Button>
      )}
    </li>
  );
}
