import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWatch } from '../../../api/hooks';
import { useConfig } from '../../../api/useConfig';
import { ERR } from '../../../shared/call';
import type { OrderRow } from '../../../shared/contract/trading';
import { formatMoney, formatNumber } from '../../../shared/format';
import { fromMinor, priceToTicks, ticksToPrice, toMinor } from '../../../shared/money';
import {
  checkStockQuantity,
  displayCode,
  parseQuantity,
  protectedLimit,
  STOCK_QTY_MAX,
  STOCK_QTY_MIN,
} from '../../../shared/rules';
import { Button, Dialog, MoneyButton, Skeleton, TextField, ui } from '../../../ui';
import inv from '../invest/invest.module.css';
import { QuantityStepper, regionPrice, SummaryRow } from '../invest/parts';
import { useOcoTexts } from './oco';
import { priceDecimals } from './parts';
import s from './trading.module.css';
import type { OrderChanges, useModifyOrder } from './useModifyOrder';

/** A typed price: a positive decimal with at most four places (prices are exact to 1/10,000). */
function parsePrice(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!m) return null;
  const price = Number(text.trim());
  return price > 0 ? price : null;
}

/**
 * The order type an order row was: the server records it; a stock order placed before it did was a
 * limit if it rested, else a market order.
 */
export function orderTypeOf(order: OrderRow): 'market' | 'limit' | 'sl' | 'slm' | 'gtt' | 'oco' {
  if (order.order_type) return order.order_type;
  return order.expires_at !== null ? 'limit' : 'market';
}

export const ORDER_TYPE_LABEL = {
  market: 'trade.market',
  limit: 'trade.limit.label',
  sl: 'trade.stop.sl',
  slm: 'trade.stop.slm',
  gtt: 'trade.gtt.label',
  oco: 'trade.gtt.ocoLabel',
} as const;

/**
 * The modify sheet of a pending order: its quantity, its limit (limit, SL) and its
 * trigger (a stop not yet triggered). A buy shows what the order holds now beside what it would
 * hold — the server's `orderQuote` at the new limit — and the difference to pay or to get back; a
 * sell shows the units it holds and the units free. The server re-reserves and decides.
 */
export function ModifyOrderSheet({ modify }: { modify: ReturnType<typeof useModifyOrder> }) {
  const { t } = useTranslation();
  const order = modify.editing;
  return (
    <Dialog
      open={order !== null}
      sheet
      onClose={() => modify.open(null)}
      title={order ? t('records.modify.title', { code: displayCode(order.tag) }) : ''}
    >
      {order && <ModifyForm key={order.no} order={order} modify={modify} />}
    </Dialog>
  );
}

function ModifyForm({ order, modify }: { order: OrderRow; modify: ReturnType<typeof useModifyOrder> }) {
  const { t } = useTranslation();
  const config = useConfig();
  const type = orderTypeOf(order);
  const buying = order.state === 'buy';
  const limitPrice = order.limit_price ?? order.price;
  const oco = useOcoTexts()(order);
  // An armed OCO changes its quantity only (its legs are placed again); once fired, its limit too.
  const ocoArmed = oco !== null && order.triggered_at === null;
  const hasLimit = type !== 'slm' && !ocoArmed;
  const hasTrigger = (type === 'sl' || type === 'slm' || type === 'gtt') && order.triggered_at === null;
  const [qtyText, setQtyText] = useState(String(order.count));
  const [limitText, setLimitText] = useState(String(limitPrice));
  const [triggerText, setTriggerText] = useState(
    order.trigger_price === null ? '' : String(order.trigger_price),
  );

  const qty = parseQuantity(qtyText);
  const qtyError = checkStockQuantity(qty, 'full');
  const limit = hasLimit ? parsePrice(limitText) : null;
  const trigger = hasTrigger ? parsePrice(triggerText) : null;
  const limitError = hasLimit && limit === null ? 'trade.limit.invalid' : null;
  const triggerError = hasTrigger && trigger === null ? 'errors.triggerMissing' : null;

  const changes: OrderChanges = {};
  if (qty !== null && qty !== order.count) changes.count = qty;
  if (limit !== null && limit !== limitPrice) changes.price = limit;
  if (trigger !== null && trigger !== order.trigger_price) changes.trigger = trigger;
  const changed = Object.keys(changes).length > 0;
  const blocked = qtyError !== null || limitError !== null || triggerError !== null || !changed;

  // Where the order would reserve: its limit, or an SL-M's trigger moved by the tolerance.
  const reserveAt =
    type === 'slm'
      ? trigger === null
        ? limitPrice
        : ticksToPrice(protectedLimit(order.state, priceToTicks(trigger)))
      : ocoArmed
        ? limitPrice
        : limit;
  const figures = useWatch(
    'orderQuote',
    qty !== null && qtyError === null && reserveAt !== null
      ? { tag: order.tag, side: order.state, count: qty, price: reserveAt }
      : null,
    0,
  );
  const f =
    figures.data && figures.data.count === qty && figures.data.price === reserveAt ? figures.data : null;
  // What it holds now: price_all is a pending buy's reservation (value and charges at its limit).
  const heldNow = toMinor(order.price_all) ?? 0;
  const heldAfter = f ? (toMinor(f.net) ?? 0) : null;
  const diff = heldAfter === null ? null : heldAfter - heldNow;
  const money = (minor: number) => formatMoney(fromMinor(minor), config.currency);
  const price = (p: number) => regionPrice(config, order.type, p, priceDecimals(p));

  return (
    <>
      <dl className={inv.summary}>
        <SummaryRow label={t('trade.contract.instrument')}>
          {displayCode(order.tag)} · {order.name}
        </SummaryRow>
        <SummaryRow label={t('trade.orderType')}>
          {t(buying ? 'trade.buy' : 'trade.sell')} · {t(ORDER_TYPE_LABEL[type])}
        </SummaryRow>
        {oco && (
          <>
            <SummaryRow label={t('trade.gtt.legTarget')}>{oco.target}</SummaryRow>
            <SummaryRow label={t('trade.gtt.legStop')}>{oco.stop}</SummaryRow>
            {oco.fired && <SummaryRow label={t('records.triggeredAt')}>{oco.fired}</SummaryRow>}
          </>
        )}
        {order.trigger_price !== null && !hasTrigger && !oco && (
          <SummaryRow label={t('trade.stop.trigger')}>
            {t('trade.stop.triggered', { price: price(order.trigger_price) })}
          </SummaryRow>
        )}
      </dl>
      <div className={s.modifyFields}>
        <QuantityStepper
          label={t('trade.quantity')}
          value={qtyText}
          onChange={setQtyText}
          onDecrease={() => setQtyText(String(Math.max(STOCK_QTY_MIN, (qty ?? 2) - 1)))}
          onIncrease={() => setQtyText(String(Math.min(STOCK_QTY_MAX.full, (qty ?? 0) + 1)))}
          decreaseDisabled={qty !== null && qty <= STOCK_QTY_MIN}
          increaseDisabled={qty !== null && qty >= STOCK_QTY_MAX.full}
          error={qtyError ? t(qtyError, { max: STOCK_QTY_MAX.full }) : null}
        />
        {hasTrigger && (
          <TextField
            label={t('trade.stop.trigger')}
            inputMode="decimal"
            autoComplete="off"
            value={triggerText}
            onChange={(v) => setTriggerText(v.replace(/[^\d.]/g, ''))}
            error={triggerError ? t(triggerError) : null}
            hint={t(
              type === 'gtt' ? 'trade.gtt.hint' : buying ? 'trade.stop.hintBuy' : 'trade.stop.hintSell',
            )}
          />
        )}
        {hasLimit && (
          <TextField
            label={t('trade.limit.price')}
            inputMode="decimal"
            autoComplete="off"
            value={limitText}
            onChange={(v) => setLimitText(v.replace(/[^\d.]/g, ''))}
            error={limitError ? t(limitError) : null}
          />
        )}
      </div>
      <dl className={inv.summary} data-testid="modify-figures">
        {buying ? (
          <>
            <SummaryRow label={t('records.modify.heldNow')}>{money(heldNow)}</SummaryRow>
            <SummaryRow label={t('records.modify.heldAfter')}>
              {heldAfter === null ? <Skeleton width={80} /> : money(heldAfter)}
            </SummaryRow>
            <SummaryRow
              label={t(diff !== null && diff < 0 ? 'records.modify.released' : 'records.modify.toReserve')}
              total
            >
              {diff === null ? <Skeleton width={80} /> : money(Math.abs(diff))}
            </SummaryRow>
            {f && (
              <SummaryRow label={t('trade.review.available')}>
                {formatMoney(f.available, config.currency)}
              </SummaryRow>
            )}
          </>
        ) : (
          <>
            <SummaryRow label={t('records.modify.unitsNow')}>{formatNumber(order.count, 0)}</SummaryRow>
            <SummaryRow label={t('records.modify.unitsAfter')}>
              {formatNumber(qty ?? order.count, 0)}
            </SummaryRow>
            <SummaryRow label={t('trade.review.held')} total>
              {f ? formatNumber(f.held, 0) : <Skeleton width={40} />}
            </SummaryRow>
          </>
        )}
      </dl>
      {ocoArmed && <p className={inv.summaryHint}>{t('trade.gtt.ocoModifyHint')}</p>}
      <p className={inv.summaryHint}>{t('records.modify.hint')}</p>
      {modify.failure && (
        <div className={ui.failureBox} role="alert">
          <strong>{t('records.modify.failed')}</strong>
          {modify.failure !== ERR.server && <span>{t(modify.failure)}</span>}
        </div>
      )}
      <div className={ui.dialogActions}>
        <Button variant="ghost" onClick={() => modify.open(null)}>
          {t('common.cancel')}
        </Button>
        <MoneyButton
          call={modify.call}
          loading={modify.busy}
          disabled={blocked}
          onClick={() => void modify.submit(order, changes)}
        >
          {t('records.modify.confirm')}
        </MoneyButton>
      </div>
    </>
  );
}
