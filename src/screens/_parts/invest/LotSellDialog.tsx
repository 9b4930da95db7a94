import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { useMoneyCall } from '../../../api/money';
import { currencyFor, useConfig } from '../../../api/useConfig';
import type { OrderRow } from '../../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../../shared/format';
import { scheduleOf } from '../../../shared/market-hours';
import { fromMinor, priceToTicks, tradeValueMinor } from '../../../shared/money';
import { displayCode, POLL_MS } from '../../../shared/rules';
import { toast } from '../../../store/ui';
import { AsOf, Button, Dialog, MoneyButton, Skeleton, ui, useDates } from '../../../ui';
import { useServerNow } from '../../../ui/clock';
import { ChargesRows } from '../trading/Charges';
import s from './invest.module.css';
import { regionPrice, SignedMoney, SummaryRow } from './parts';
import { UsdRateLine } from './UsdRateLine';
import { toastMoneyFailure } from './useMoneyCall';
import { useUsdRate } from './useUsdRate';

/**
 * Sells a whole lot (an allotted IPO application or a block/QIP purchase) by its order number at
 * the server's quote, in its market's session only. Value, charges, what arrives and open or
 * closed are the server's `orderQuote` for the lot (a stock sell's charges, its clock); the profit
 * estimate uses the server's USD rate now (a US lot); the server fills at its own price and rate
 * and computes the profit/loss itself (DESIGN rule 3).
 */
/** What the sheet needs of a lot: an order row (IPO, block/QIP records) or a Holdings lot row. */
export type LotToSell = Pick<OrderRow, 'no' | 'tag' | 'count' | 'price' | 'type' | 'market' | 'unlock_at'>;

export function LotSellDialog({
  order,
  onClose,
  onDone,
}: {
  order: LotToSell;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  // In its lock-in (the server's clock decides): the sheet says until when and sells nothing.
  const serverNow = useServerNow();
  const lockedUntil = order.unlock_at !== null && order.unlock_at > serverNow ? order.unlock_at : null;
  const schedule = scheduleOf(order.market, order.type);
  const ticket = useWatch('orderQuote', { tag: order.tag, side: 'sell', count: order.count }, POLL_MS.prices);
  const sell = useMoneyCall('dealSell');
  const [busy, setBusy] = useState(false);
  const f = ticket.data;
  const price = f?.price;
  const unit = currencyFor(config, order.type).unit;
  const usd = useUsdRate(unit === 'USD');
  const rate = usd.ticksFor(unit);
  const rateRefused = usd.refusedFor(unit);
  const profit =
    price === undefined || rate === null
      ? null
      : tradeValueMinor(priceToTicks(price) - priceToTicks(order.price), order.count, rate);
  // Unknown to the market (the order quote's 404): an IPO whose shares are not listed yet.
  const problem =
    f === undefined && ticket.error
      ? ticket.error === 'errors.notFound' || ticket.error === 'errors.unknownSymbol'
        ? 'errors.ipoNotListed'
        : ticket.error
      : null;
  const closed = f !== undefined && !f.session.open;

  async function confirm() {
    if (price === undefined) return;
    setBusy(true);
    const result = await sell({ no: order.no, sell_price: price });
    setBusy(false);
    if (!result.ok) {
      toastMoneyFailure(result.error, 'ipo.sell.failed');
      return;
    }
    toast('ipo.sell.success', 'success');
    onDone();
  }

  return (
    <Dialog open sheet onClose={onClose} title={t('ipo.sell.title', { code: displayCode(order.tag) })}>
      <dl className={s.summary}>
        <SummaryRow label={t('ipo.order.quantity')}>{formatNumber(order.count, 0)}</SummaryRow>
        <SummaryRow label={t('ipo.order.price')}>{regionPrice(config, order.type, order.price)}</SummaryRow>
        <SummaryRow label={t('ipo.sell.marketPrice')}>
          {price === undefined ? (
            problem ? (
              '—'
            ) : (
              <Skeleton width={80} />
            )
          ) : (
            <span data-testid="sell-price">{regionPrice(config, order.type, price)}</span>
          )}
        </SummaryRow>
        <SummaryRow label={t('ipo.sell.estimatedProfit')}>
          {profit === null ? '—' : <SignedMoney amount={fromMinor(profit)} currency={config.currency} />}
        </SummaryRow>
        {f && (
          <>
            <SummaryRow label={t('trade.estValue')}>{formatMoney(f.value, config.currency)}</SummaryRow>
            <ChargesRows charges={f.charges} />
          </>
        )}
        <SummaryRow label={t('ipo.sell.proceeds')} total>
          {f ? <span data-testid="sell-net">{formatMoney(f.net, config.currency)}</span> : '—'}
        </SummaryRow>
      </dl>
      {ticket.stale && <AsOf at={ticket.updatedAt} stale />}
      {unit === 'USD' && (
        <p className={s.summaryHint}>
          <UsdRateLine rate={usd} />
        </p>
      )}
      {problem ? (
        <p className={ui.error} role="alert">
          {t(problem)}
        </p>
      ) : lockedUntil !== null ? (
        <p className={ui.closedNotice} data-testid="sell-locked" role="status">
          {t('ipo.sell.locked', { time: exchange(lockedUntil, schedule, 'dayMonthClock') })}
        </p>
      ) : closed && f.session.opens_at !== null ? (
        <p className={ui.closedNotice} data-testid="sell-closed" role="status">
          {t('ipo.sell.closed', { time: exchange(f.session.opens_at, schedule, 'weekdayClock') })}
        </p>
      ) : (
        <p className={s.summaryHint}>{t('ipo.sell.hint')}</p>
      )}
      <div className={ui.dialogActions}>
        <Button variant="ghost" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <MoneyButton
          variant="sell"
          call={sell}
          loading={busy}
          disabled={price === undefined || rate === null || rateRefused || closed || lockedUntil !== null}
          onClick={confirm}
        >
          {t('ipo.sell.confirm')}
        </MoneyButton>
      </div>
    </Dialog>
  );
}
