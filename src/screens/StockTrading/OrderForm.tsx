import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { formatMoney } from '../../shared/format';
import type { PositionSize } from '../../shared/rules';
import { Segmented, TextField, ui } from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { QuantityStepper, regionPrice, SummaryRow } from '../_parts/invest/parts';
import s from './trading.module.css';
import type { GttKind, OrderType, Ticket } from './useStockTrading';

/**
 * The ticket's form: the order type (market, limit, stops, GTT with its OCO legs), the prices it
 * needs, SPEC's half/full position and the quantity stepper, and the server's figures for it.
 */
export function OrderForm({ tr, code }: { tr: Ticket; code: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  const money = (m: string | undefined) => (m === undefined ? '—' : formatMoney(m, config.currency));
  return (
    <section role="tabpanel" aria-labelledby={`trade-side-${tr.side}`} className={`${ui.form} ${s.form}`}>
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
