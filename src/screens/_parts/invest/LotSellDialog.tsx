import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { useMoneyCall } from '../../../api/money';
import { currencyFor, useConfig } from '../../../api/useConfig';
import type { OrderRow } from '../../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../../shared/format';
import { fromMinor, priceToTicks, tradeValueMinor } from '../../../shared/money';
import { displayCode, POLL_MS } from '../../../shared/rules';
import { toast } from '../../../store/ui';
import { AsOf, Button, Dialog, MoneyButton, Skeleton, ui } from '../../../ui';
import s from './invest.module.css';
import { regionPrice, SignedMoney, SummaryRow } from './parts';
import { UsdRateLine } from './UsdRateLine';
import { toastMoneyFailure } from './useMoneyCall';
import { useUsdRate } from './useUsdRate';

/**
 * Sells a whole lot (an allotted IPO application or a block/QIP purchase) by its order number at
 * the server's quote. The estimate uses the live price and the server's USD rate now (a US lot);
 * the server fills at its own price and rate and computes the profit/loss itself (DESIGN rule 3).
 */
export function LotSellDialog({
  order,
  onClose,
  onDone,
}: {
  order: OrderRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const quote = useWatch('quote', { symbol: order.tag }, POLL_MS.prices);
  const sell = useMoneyCall('dealSell');
  const [busy, setBusy] = useState(false);
  const price = quote.data?.price;
  const unit = currencyFor(config, order.type).unit;
  const usd = useUsdRate(unit === 'USD');
  const rate = usd.ticksFor(unit);
  const rateRefused = usd.refusedFor(unit);
  const proceeds =
    price === undefined || rate === null ? null : tradeValueMinor(priceToTicks(price), order.count, rate);
  const profit =
    price === undefined || rate === null
      ? null
      : tradeValueMinor(priceToTicks(price) - priceToTicks(order.price), order.count, rate);
  // Unknown to the market: an IPO whose shares are not listed yet.
  const problem =
    quote.data === undefined && quote.error
      ? quote.error === 'errors.unknownSymbol'
        ? 'errors.ipoNotListed'
        : quote.error
      : null;

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
            <span data-testid="sell-price">
              {regionPrice(config, quote.data?.region ?? order.type, price, quote.data?.decimals)}
            </span>
          )}
        </SummaryRow>
        <SummaryRow label={t('ipo.sell.estimatedProfit')}>
          {profit === null ? '—' : <SignedMoney amount={fromMinor(profit)} currency={config.currency} />}
        </SummaryRow>
        <SummaryRow label={t('ipo.sell.proceeds')} total>
          {proceeds === null ? '—' : formatMoney(proceeds, config.currency)}
        </SummaryRow>
      </dl>
      {quote.stale && <AsOf at={quote.updatedAt} stale />}
      {unit === 'USD' && (
        <p className={s.summaryHint}>
          <UsdRateLine rate={usd} />
        </p>
      )}
      {problem ? (
        <p className={ui.error} role="alert">
          {t(problem)}
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
          disabled={price === undefined || rate === null || rateRefused}
          onClick={confirm}
        >
          {t('ipo.sell.confirm')}
        </MoneyButton>
      </div>
    </Dialog>
  );
}
