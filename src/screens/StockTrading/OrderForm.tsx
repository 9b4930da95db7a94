import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { formatMoney, formatQuantity } from '../../shared/format';
import { toMinor } from '../../shared/money';
import { type PositionSize, STOCK_QTY_MAX } from '../../shared/rules';
import { Segmented, TextField, ui, useDates } from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { QuantityStepper, regionPrice, SummaryRow } from '../_parts/invest/parts';
import s from './trading.module.css';
import type { GttKind, OrderType, Product, Ticket, Validity } from './useStockTrading';

/**
 * The ticket's form, coloured by its side with the side in words (issue 30): the order type (market,
 * limit, stops, GTT with its OCO legs), product and validity, what a closed market does to the
 * order, the prices it needs, SPEC's half/full position and the quantity stepper, and the server's
 * figures for it.
 */
export function OrderForm({ tr, code }: { tr: Ticket; code: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const money = (m: string | undefined) => (m === undefined ? '—' : formatMoney(m, config.currency));
  const { session } = tr;
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
      <div className={s.choices}>
        <div className={ui.field}>
          <span className={ui.label}>{t('trade.product.label')}</span>
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
        </div>
        {(tr.orderType === 'market' || tr.orderType === 'limit') && (
          <div className={ui.field}>
            <span className={ui.label}>{t('trade.validity.label')}</span>
            <Segmented<Validity>
              label={t('trade.validity.label')}
              value={tr.validity}
              onChange={tr.setValidity}
              items={[
                { value: 'day', label: t('trade.validity.day') },
                { value: 'ioc', label: t('trade.validity.ioc') },
              ]}
            />
          </div>
        )}
      </div>
      <p className={s.muted} data-testid="trade-product-hint">
        {t('trade.product.hint', { time: exchange(session.close, session.schedule, 'clock') })}
        {(tr.orderType === 'market' || tr.orderType === 'limit') &&
          ` ${t(tr.validity === 'ioc' ? 'trade.validity.hintIoc' : 'trade.validity.hintDay')}`}
      </p>
      {!session.open && (
        <p className={ui.closedNotice} data-testid="trade-closed" role="status">
          {t(tr.amo ? 'trade.amo.notice' : 'trade.amo.closed', {
            time: exchange(session.nextOpen, session.schedule, 'weekdayClock'),
          })}
        </p>
      )}
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
          value={tr.triggerText}
          onChange={(v) => tr.setTriggerText(v.replace(/[^\d.]/g, ''))}
          hint={tr.gtt ? undefined : t(tr.side === 'buy' ? 'trade.stop.hintBuy' : 'trade.stop.hintSell')}
        />
      )}
      {tr.gtt && (
        <TextField
          label={t('trade.gtt.days')}
          inputMode="numeric"
          autoComplete="off"
          value={tr.daysText}
          onChange={(v) => tr.setDaysText(v.replace(/\D/g, ''))}
          error={tr.validDays === null ? t('errors.gttValidity') : null}
          hint={t('trade.gtt.daysHint')}
        />
      )}
      {!tr.marketAllowed && tr.quote.data && <p className={s.muted}>{t('core.money.staleQuote')}</p>}
      {(tr.orderType === 'limit' || tr.orderType === 'sl' || tr.gtt) && !tr.oco && (
        <TextField
          label={t('trade.limit.price')}
          inputMode="decimal"
          autoComplete="off"
          value={tr.limitText}
          onChange={(v) => tr.setLimitText(v.replace(/[^\d.]/g, ''))}
          error={tr.limitText !== '' && tr.limitError ? t(tr.limitError) : null}
          hint={tr.orderType === 'limit' ? t('trade.limit.hint') : undefined}
        />
      )}
      <div className={ui.field}>
        <span className={ui.label}>{t('trade.position')}</span>
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
      <QuantityStepper
        label={t('trade.quantity')}
        value={tr.qtyText}
        onChange={tr.setQtyText}
        onDecrease={() => tr.step(-1)}
        onIncrease={() => tr.step(1)}
        decreaseDisabled={tr.qty !== null && tr.qty <= 1}
        increaseDisabled={tr.qty !== null && tr.qty >= tr.max.qty}
        aside={
          <span className={s.maxHint} data-testid="trade-max">
            {t(`trade.maxWhy.${tr.max.reason}`, { max: tr.max.qty })}
          </span>
        }
        hint={
          tr.side === 'sell'
            ? tr.canSell
              ? t('trade.availableToSell', { count: tr.position?.available ?? 0 })
              : t('trade.noPosition', { code })
            : undefined
        }
        error={
          tr.qtyError && (tr.side === 'buy' || tr.canSell)
            ? t(tr.qtyError, { max: tr.qtyError === 'trade.qty.maxFunds' ? tr.max.qty : tr.positionMax })
            : null
        }
      />
      <dl className={inv.summary}>
        <SummaryRow label={t('trade.estValue')}>{money(tr.figures?.value)}</SummaryRow>
        <SummaryRow label={t('trade.charges.total')}>{money(tr.figures?.charges.total)}</SummaryRow>
        <SummaryRow label={t(tr.side === 'buy' ? 'trade.estCost' : 'trade.estProceeds')} total>
          <span data-testid="trade-estimate">{money(tr.figures?.net)}</span>
        </SummaryRow>
      </dl>
    </section>
  );
}

/**
 * The sticky line above the Buy/Sell action (issue 30): what the order needs against what there is,
 * and its charges — all the server's figures for this very order (`orderQuote`), never the app's.
 * A buy: "Required ₹… · Available ₹… · Charges ₹…"; a sell: what arrives, the shares free, charges.
 */
export function NeedLine({ tr }: { tr: Ticket }) {
  const { t } = useTranslation();
  const config = useConfig();
  const f = tr.figures;
  const money = (m: string | undefined) => (m === undefined ? '—' : formatMoney(m, config.currency));
  const short = f !== null && tr.side === 'buy' && (toMinor(f.net) ?? 0) > (toMinor(f.available) ?? 0);
  const part = (label: string, value: string, id: string) => (
    <span className={s.needPart}>
      {label} <strong data-testid={id}>{value}</strong>
    </span>
  );
  return (
    <p className={`${s.needLine} ${short ? s.needShort : ''}`} data-testid="trade-need">
      {tr.side === 'buy' ? (
        <>
          {part(t('trade.need.required'), money(f?.net), 'need-required')}
          {' · '}
          {part(t('trade.need.available'), money(f?.available), 'need-available')}
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

/**
 * An OCO's two legs (issue 13): the target (above the last price) and the stop (below it), each
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
        tr.triggerText,
        tr.setTriggerText,
        e?.target,
        t('trade.gtt.targetHint', { price: last }),
      )}
      {field(t('trade.gtt.targetLimit'), tr.limitText, tr.setLimitText, e?.targetLimit)}
      {field(
        t('trade.gtt.stop'),
        tr.stopText,
        tr.setStopText,
        e?.stop,
        t('trade.gtt.stopHint', { price: last }),
      )}
      {field(t('trade.gtt.stopLimit'), tr.stopLimitText, tr.setStopLimitText, e?.stopLimit)}
    </>
  );
}
