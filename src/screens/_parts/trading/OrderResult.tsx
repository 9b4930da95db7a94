import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../../api/useConfig';
import type { OrderRow } from '../../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../../shared/format';
import { scheduleOf } from '../../../shared/market-hours';
import { displayCode } from '../../../shared/rules';
import { Button, Dialog, StatusChip, ui, useDates } from '../../../ui';
import inv from '../invest/invest.module.css';
import { regionPrice, SignedMoney, SummaryRow } from '../invest/parts';
import { ContractNoteSheet } from './ContractNoteSheet';
import {
  filledQuantity,
  hasContractNote,
  OUTCOME,
  orderOutcome,
  ordersPathOf,
  outcomeReason,
} from './outcome';
import { priceDecimals } from './parts';
import s from './trading.module.css';

/**
 * The result of an order as the server left it (DESIGN rule 8): its status, what filled of it, the
 * price and money that moved — or what it holds while pending, or why it ended and what came back —
 * read from the order row the server answered, never from what the ticket expected. Used by every
 * buy and sell that answers an order row (stock ticket, block/QIP and IPO buys, lot sales).
 * `order` null: closed. `className` tints the sheet by side.
 */
export function OrderResultSheet({
  order,
  onClose,
  className,
  decimals,
}: {
  order: OrderRow | null;
  onClose: () => void;
  className?: string;
  /** The instrument's price decimals (else two, or four where the price needs them). */
  decimals?: number;
}) {
  const { t } = useTranslation();
  const [noteFor, setNoteFor] = useState<string | null>(null);
  const outcome = order ? orderOutcome(order) : 'pending';
  return (
    <>
      <Dialog
        open={order !== null && noteFor === null}
        sheet
        onClose={onClose}
        className={className}
        title={t(OUTCOME[outcome].title)}
      >
        {order && <OrderResultBody order={order} decimals={decimals} />}
        <div className={ui.dialogActions}>
          {order && (
            <Link to={ordersPathOf(order)} className={s.linkButton}>
              {t('trade.result.records')}
            </Link>
          )}
          {order && hasContractNote(order) && (
            <Button variant="ghost" onClick={() => setNoteFor(order.no)}>
              {t('trade.contract.open')}
            </Button>
          )}
          <Button onClick={onClose}>{t('trade.result.done')}</Button>
        </div>
      </Dialog>
      <ContractNoteSheet no={order ? noteFor : null} onClose={() => setNoteFor(null)} />
    </>
  );
}

/** The figures of a result: by outcome, every one the server's. */
export function OrderResultBody({ order, decimals }: { order: OrderRow; decimals?: number }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const outcome = orderOutcome(order);
  const selling = order.state === 'sell';
  const schedule = scheduleOf(order.market, order.type);
  const price = (p: number) => regionPrice(config, order.type, p, decimals ?? priceDecimals(p));
  const money = (m: string) => formatMoney(m, config.currency);
  const reason = outcomeReason(order);
  const sendAt = outcome === 'pending' && order.amo && order.send_at !== null ? order.send_at : null;
  const side = t(selling ? 'trade.sell' : 'trade.buy');
  return (
    <>
      <div className={s.resultHead}>
        <StatusChip tone={OUTCOME[outcome].tone}>
          <span data-testid="result-status">{t(OUTCOME[outcome].status)}</span>
        </StatusChip>
        <span className={inv.orderNo}>{order.no}</span>
      </div>
      <dl className={inv.summary} data-testid="trade-result" data-outcome={outcome}>
        <SummaryRow label={t('trade.contract.instrument')}>
          {side} · {displayCode(order.tag)}
        </SummaryRow>
        <SummaryRow label={t('trade.result.filled')}>
          <span data-testid="result-filled">
            {t('trade.result.filledOf', {
              filled: formatNumber(filledQuantity(order), 0),
              count: formatNumber(order.count, 0),
            })}
          </span>
        </SummaryRow>
        {outcome === 'filled' && (
          <>
            <SummaryRow label={t('trade.result.price')}>
              <span data-testid="result-price">
                {price(selling && order.sell_price !== null ? order.sell_price : order.price)}
              </span>
            </SummaryRow>
            <SummaryRow label={t('trade.estValue')}>{money(order.value)}</SummaryRow>
            <SummaryRow label={t('trade.charges.total')}>{money(order.fee)}</SummaryRow>
            {order.profit !== null && (
              <SummaryRow label={t('trade.realised')}>
                <SignedMoney amount={order.profit} currency={config.currency} />
              </SummaryRow>
            )}
            <SummaryRow label={t(selling ? 'trade.result.received' : 'trade.result.paid')} total>
              <span data-testid="result-total">{money(order.price_all)}</span>
            </SummaryRow>
          </>
        )}
        {outcome === 'pending' && (
          <>
            {sendAt !== null && (
              <SummaryRow label={t('trade.amo.sendsAt')}>
                <span data-testid="result-sends-at">{exchange(sendAt, schedule, 'weekdayClock')}</span>
              </SummaryRow>
            )}
            {order.limit_price !== null && (
              // A market AMO's limit is its protection; a limit order's is the user's own.
              <SummaryRow
                label={t(
                  sendAt !== null && order.order_type === 'market' ? 'trade.amo.limit' : 'trade.result.limit',
                )}
              >
                {price(order.limit_price)}
              </SummaryRow>
            )}
            <SummaryRow label={t(selling ? 'trade.result.unitsHeld' : 'trade.result.reserved')} total>
              {selling ? formatNumber(order.count, 0) : money(order.price_all)}
            </SummaryRow>
          </>
        )}
        {outcome !== 'filled' && outcome !== 'pending' && order.limit_price !== null && (
          <SummaryRow label={t('trade.result.limit')}>{price(order.limit_price)}</SummaryRow>
        )}
        {(outcome === 'cancelled' || outcome === 'expired') && (
          // What it held came back whole: a buy's reservation (value and charges at its limit), a
          // sell's units. A rejected order held nothing.
          <SummaryRow label={t(selling ? 'trade.result.unitsReleased' : 'trade.result.released')} total>
            <span data-testid="result-released">
              {selling ? formatNumber(order.count, 0) : money(order.price_all)}
            </span>
          </SummaryRow>
        )}
      </dl>
      {outcome === 'pending' && (
        <p className={inv.summaryHint}>
          {sendAt !== null
            ? t('trade.amo.resultHint', { time: exchange(sendAt, schedule, 'weekdayClock') })
            : t('trade.result.pendingHint')}
        </p>
      )}
      {reason && outcome !== 'pending' && outcome !== 'filled' && (
        <p className={ui.closedNotice} data-testid="result-reason" role="status">
          {t(reason)}
        </p>
      )}
    </>
  );
}
