import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import type { OrderQuote } from '../../shared/contract/trading';
import { formatMoney, formatQuantity } from '../../shared/format';
import { toMinor } from '../../shared/money';
import { type PositionSize, STOCK_QTY_MAX } from '../../shared/rules';
import { Segmented, TextField, ui, useDates } from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { QuantityStepper, regionPrice, SummaryRow } from '../_parts/invest/parts';
import s from './trading.module.css';
import type { GttKind, OrderType, Product, Ticket, Validity } from './useStockTrading';

/**
 * The ticket's form, coloured by its side with the side in words. Its first row is what
 * every order needs — the quantity and the price (a limit starts at the last price; a market order's
 * is the market's) — so a phone shows both without scrolling; then what a closed market does to
 * the order, the order type and the prices it adds (trigger, GTT, OCO legs), the rarer choices
 * (product, validity, SPEC's half/full position), one hint for the choices in force, and the
 * server's figures for it.
 */
export function OrderForm({ tr, code }: { tr: Ticket; code: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const money = (m: string | undefined) => (m === undefined ? '—' : formatMoney(m, config.currency));
  const { session } = tr;
  const hint = ticketHint(tr, exchange(session.close, session.schedule, 'clock'));
  // A limit, stop-loss or single GTT has its limit price here; an OCO's four prices come below.
  const limitHere = tr.limited && !tr.oco;
  return (
    <section
      role="tabpanel"
      aria-labelledby={`trade-side-${tr.side}`}
      className={`${ui.form} ${s.form} ${tr.side === 'sell' ? s.formSell : s.formBuy}`}
      data-side={tr.side}
    >
      <p className={s.sideBand} data-testid="trade-side-band">
        {t(tr.side === 'sell' ? 'trade.sideBand.sell' : 'trade.sideBand.buy', { code })}
      </p>
      <div className={s.firstRow} data-testid="trade-first-row">
        <QuantityStepper
          label={t('trade.quantity')}
          value={tr.fields.qty}
          onChange={(v: string) => tr.set('qty', v)}
          onDecrease={() => tr.step(-1)}
          onIncrease={() => tr.step(1)}
          decreaseDisabled={tr.qty !== null && tr.qty <= 1}
          increaseDisabled={tr.qty !== null && tr.qty >= tr.max.qty}
          hint={
            <>
              <span className={s.maxHint} data-testid="trade-max">
                {tr.maxPending
                  ? t('trade.maxWhy.checking')
                  : t(`trade.maxWhy.${tr.max.reason}`, { max: tr.max.qty })}
              </span>
              {tr.side === 'sell' && (
                <span className={s.hintLine}>
                  {tr.canSell
                    ? t('trade.availableToSell', { count: tr.position?.available ?? 0 })
                    : t('trade.noPosition', { code })}
                </span>
              )}
            </>
          }
          error={
            tr.qtyError && tr.fields.qty !== '' && (tr.side === 'buy' || tr.canSell)
              ? t(tr.qtyError, {
                  max: tr.qtyError === 'trade.qty.maxFunds' ? tr.max.qty : tr.positionMax,
                })
              : null
          }
        />
        {limitHere ? (
          <TextField
            label={t('trade.limit.price')}
            inputMode="decimal"
            autoComplete="off"
            value={tr.fields.limit}
            onChange={(v) => tr.set('limit', v.replace(/[^\d.]/g, ''))}
            error={tr.fields.limit !== '' && tr.limitError ? t(tr.limitError, { pct: tr.bandPct }) : null}
          />
        ) : (
          !tr.oco && (
            <div className={ui.field}>
              <span className={ui.label}>{t('trade.price')}</span>
              <p className={`${ui.control} ${s.atMarket}`} data-testid="trade-at-market">
                {t(tr.orderType === 'slm' ? 'trade.atMarketOnTrigger' : 'trade.atMarket')}
              </p>
            </div>
          )
        )}
      </div>
      {!session.open && (
        <p className={ui.closedNotice} data-testid="trade-closed" role="status">
          {t(tr.amo ? 'trade.amo.notice' : 'trade.amo.closed', {
            time: exchange(session.nextOpen, session.schedule, 'weekdayClock'),
          })}
        </p>
      )}
      <div className={s.orderTypes}>
        <Segmented<OrderType>
          label={t('trade.orderType')}
          value={tr.orderType}
          onChange={tr.setOrderType}
          items={[
            { value: 'market', label: t('trade.market'), disabled: !tr.marketAllowed },
            { value: 'limit', label: t('trade.limit.label') },
            { value: 'sl', label: t('trade.stop.sl') },
            { value: 'slm', label: t('trade.stop.slm') },
            { value: 'gtt', label: t('trade.gtt.label') },
          ]}
        />
      </div>
      {!tr.marketAllowed && tr.quote.data && <p className={s.muted}>{t('core.money.staleQuote')}</p>}
      {tr.gtt && (
        <div className={ui.field}>
          <span className={ui.label}>{t('trade.gtt.kind')}</span>
          <Segmented<GttKind>
            label={t('trade.gtt.kind')}
            value={tr.gttKind}
            onChange={tr.setGttKind}
            items={[
              { value: 'single', label: t('trade.gtt.single') },
              // OCO sells a holding: a buy GTT has one trigger.
              { value: 'oco', label: t('trade.gtt.oco'), disabled: tr.side === 'buy' },
            ]}
          />
          <span className={s.muted}>
            {t(tr.oco ? 'trade.gtt.ocoHint' : tr.side === 'buy' ? 'trade.gtt.ocoBuy' : 'trade.gtt.hint')}
          </span>
        </div>
      )}
      {tr.oco && <OcoFields tr={tr} />}
      {tr.stop && !tr.oco && (
        <TextField
          label={t('trade.stop.trigger')}
          inputMode="decimal"
          autoComplete="off"
          value={tr.fields.trigger}
          onChange={(v) => tr.set('trigger', v.replace(/[^\d.]/g, ''))}
          hint={tr.gtt ? undefined : t(tr.side === 'buy' ? 'trade.stop.hintBuy' : 'trade.stop.hintSell')}
        />
      )}
      {tr.gtt && (
        <TextField
          label={t('trade.gtt.days')}
          inputMode="numeric"
          autoComplete="off"
          value={tr.fields.days}
          onChange={(v) => tr.set('days', v.replace(/\D/g, ''))}
          error={tr.validDays === null ? t('errors.gttValidity') : null}
          hint={t('trade.gtt.daysHint')}
        />
      )}
      <div className={s.choices}>
        <Segmented<Product>
          label={t('trade.product.label')}
          value={tr.product}
          onChange={tr.setProduct}
          items={[
            { value: 'delivery', label: t('trade.product.delivery') },
            // A GTT waits for days: delivery only.
            { value: 'intraday', label: t('trade.product.intraday'), disabled: tr.gtt },
          ]}
        />
        {(tr.orderType === 'market' || tr.orderType === 'limit') && (
          <Segmented<Validity>
            label={t('trade.validity.label')}
            value={tr.validity}
            onChange={tr.setValidity}
            items={[
              { value: 'day', label: t('trade.validity.day') },
              // IOC cannot wait for the open: not offered while the market is closed.
              { value: 'ioc', label: t('trade.validity.ioc'), disabled: !tr.iocAllowed },
            ]}
          />
        )}
      </div>
      {hint.length > 0 && (
        <p className={s.muted} data-testid="trade-product-hint">
          {hint.map((key) => t(key.key, key.values)).join(' ')}
        </p>
      )}
      <div className={ui.field}>
        <Segmented<PositionSize>
          label={t('trade.position')}
          value={tr.size}
          onChange={tr.setSize}
          items={[
            { value: 'half', label: t('trade.half') },
            { value: 'full', label: t('trade.full') },
          ]}
        />
        <span className={s.muted}>
          {t('trade.positionHint', { half: STOCK_QTY_MAX.half, full: STOCK_QTY_MAX.full })}
        </span>
      </div>
      <dl className={inv.summary}>
        <SummaryRow label={t('trade.estValue')}>{money(tr.figures?.value)}</SummaryRow>
        <SummaryRow label={t('trade.charges.total')}>{money(tr.figures?.charges.total)}</SummaryRow>
        {protecting(tr.figures) && (
          <SummaryRow label={t('trade.amo.protection')}>{money(tr.figures?.protection)}</SummaryRow>
        )}
        <SummaryRow
          label={t(
            tr.side === 'sell'
              ? 'trade.estProceeds'
              : protecting(tr.figures)
                ? 'trade.review.required'
                : 'trade.estCost',
          )}
          total
        >
          <span data-testid="trade-estimate">
            {money(tr.side === 'buy' ? tr.figures?.required : tr.figures?.net)}
          </span>
        </SummaryRow>
      </dl>
    </section>
  );
}

/** One sentence (an i18n key and its values) of the ticket's hint. */
interface HintPart {
  key: string;
  values?: Record<string, string | number>;
}

/**
 * The one hint under the choices, for the choices in force and nothing else: the square-off time
 * only for an intraday order; what an IOC does when it cannot fill at once; how a day limit waits;
 * on a closed market, why IOC is off (it would be cancelled, never kept for the open).
 */
export function ticketHint(
  tr: Pick<Ticket, 'product' | 'validity' | 'orderType' | 'session'>,
  closeTime: string,
): HintPart[] {
  const parts: HintPart[] = [];
  if (tr.product === 'intraday') parts.push({ key: 'trade.product.hint', values: { time: closeTime } });
  const plain = tr.orderType === 'market' || tr.orderType === 'limit';
  if (!plain) return parts;
  if (!tr.session.open) parts.push({ key: 'trade.validity.hintClosed' });
  else if (tr.validity === 'ioc')
    parts.push({ key: tr.orderType === 'limit' ? 'trade.validity.hintIocLimit' : 'trade.validity.hintIoc' });
  else if (tr.orderType === 'limit') parts.push({ key: 'trade.limit.hint' });
  return parts;
}

/**
 * Why the Buy/Sell button is off, in words (an i18n key and its values), or null when it is on:
 * the ticket's first blocking rule, named for what the user does next.
 */
export function blockedReason(
  tr: Pick<Ticket, 'blocked' | 'fields' | 'positionMax' | 'bandPct'>,
): HintPart | null {
  const b = tr.blocked;
  if (b === null) return null;
  const qtyEmpty = tr.fields.qty === '';
  const limitEmpty = tr.fields.limit === '';
  // The field says what is wrong with it; the button says what to do, in words of its own.
  switch (b) {
    case 'trade.qty.min':
      return { key: qtyEmpty ? 'trade.why.noQty' : 'trade.why.qtyMin' };
    case 'trade.qty.maxFunds':
      return { key: 'trade.why.funds' };
    case 'trade.qty.maxHalf':
      return { key: 'trade.why.maxHalf', values: { max: tr.positionMax } };
    case 'trade.qty.maxFull':
      return { key: 'trade.why.maxFull', values: { max: tr.positionMax } };
    case 'trade.limit.invalid':
      return { key: limitEmpty ? 'trade.why.noLimit' : 'trade.why.badLimit' };
    case 'errors.limitOutsideBand':
      return { key: 'trade.why.band', values: { pct: tr.bandPct ?? 0 } };
    case 'errors.gttValidity':
      return { key: 'trade.why.gttDays' };
  }
  return { key: b };
}

/**
 * The sticky line above the Buy/Sell action: what the order needs against what there is,
 * and its charges — all the server's figures for this very order (`orderQuote`), never the app's.
 * A buy: "Required ₹… · Available ₹… · Charges ₹…"; a sell: what arrives, the shares free, charges.
 */
export function NeedLine({ tr }: { tr: Ticket }) {
  const { t } = useTranslation();
  const config = useConfig();
  const f = tr.figures;
  const money = (m: string | undefined) => (m === undefined ? '—' : formatMoney(m, config.currency));
  const short = isShort(tr.side, f);
  const blocked = f ? (toMinor(f.blocked) ?? 0) : 0;
  const part = (label: string, value: string, id: string) => (
    <span className={s.needPart}>
      {label} <strong data-testid={id}>{value}</strong>
    </span>
  );
  return (
    <p className={`${s.needLine} ${short ? s.needShort : ''}`} data-testid="trade-need">
      {tr.side === 'buy' ? (
        <>
          {part(t('trade.need.required'), money(f?.required), 'need-required')}
          {' · '}
          {part(t('trade.need.available'), money(f?.available), 'need-available')}
          {blocked > 0 && (
            <>
              {' '}
              <span className={s.needPart} data-testid="need-blocked">
                {t('trade.need.blocked', { amount: money(f?.blocked) })}
              </span>
            </>
          )}
        </>
      ) : (
        <>
          {part(t('trade.need.proceeds'), money(f?.net), 'need-proceeds')}
          {' · '}
          {part(t('trade.need.free'), f ? formatQuantity(f.held) : '—', 'need-free')}
        </>
      )}
      {' · '}
      {part(t('trade.need.charges'), money(f?.charges.total), 'need-charges')}
    </p>
  );
}

/** The server's figures hold an after-market buy's protection beside value and charges. */
export const protecting = (f: OrderQuote | null | undefined): f is OrderQuote =>
  f != null && (toMinor(f.protection) ?? 0) > 0;

/** A buy the available balance does not cover: what it requires (protection included) is more. */
export const isShort = (side: 'buy' | 'sell', f: OrderQuote | null): boolean =>
  f !== null && side === 'buy' && (toMinor(f.required) ?? 0) > (toMinor(f.available) ?? 0);

/**
 * An OCO's two legs: the target (above the last price) and the stop (below it), each
 * with its limit; a field's error shows once something is typed in it.
 */
function OcoFields({ tr }: { tr: Ticket }) {
  const { t } = useTranslation();
  const config = useConfig();
  const e = tr.ocoErrors;
  const last = tr.quote.data ? regionPrice(config, tr.region, tr.quote.data.price, tr.decimals) : '—';
  const field = (
    label: string,
    value: string,
    set: (v: string) => void,
    error: string | null | undefined,
    hint?: string,
  ) => (
    <TextField
      label={label}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(v) => set(v.replace(/[^\d.]/g, ''))}
      error={value !== '' && error ? t(error) : null}
      hint={hint}
    />
  );
  return (
    <>
      {field(
        t('trade.gtt.target'),
        tr.fields.trigger,
        (v: string) => tr.set('trigger', v),
        e?.target,
        t('trade.gtt.targetHint', { price: last }),
      )}
      {field(t('trade.gtt.targetLimit'), tr.fields.limit, (v: string) => tr.set('limit', v), e?.targetLimit)}
      {field(
        t('trade.gtt.stop'),
        tr.fields.stop,
        (v: string) => tr.set('stop', v),
        e?.stop,
        t('trade.gtt.stopHint', { price: last }),
      )}
      {field(
        t('trade.gtt.stopLimit'),
        tr.fields.stopLimit,
        (v: string) => tr.set('stopLimit', v),
        e?.stopLimit,
      )}
    </>
  );
}
