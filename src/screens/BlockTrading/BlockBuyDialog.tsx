import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { ERR } from '../../shared/call';
import type { BlockItem } from '../../shared/contract/invest';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { displayCode } from '../../shared/rules';
import { Button, Dialog, LoadError, MoneyButton, Skeleton, ui, useDates } from '../../ui';
import { PinInput } from '../../ui/PinInput';
import s from '../_parts/invest/invest.module.css';
import { QuantityStepper, regionPrice, Stat, SummaryRow } from '../_parts/invest/parts';
import { UsdRateLine } from '../_parts/invest/UsdRateLine';
import type { UsdRate } from '../_parts/invest/useUsdRate';
import { ChargesRows } from '../_parts/trading/Charges';
import { OrderResultSheet } from '../_parts/trading/OrderResult';
import { type BlockBuy, useBlockBuy } from './useBlockTrading';

/**
 * The block trading / QIP buy (SPEC §2; the stock ticket's path): the order — market
 * price, block price, minimum buy quantity, quantity and what it costs, every figure the server's
 * — then the review with each charge itemised and the transaction password, then the order as the
 * server answered it (`OrderResultSheet`) with its contract note. A USD lot shows its dollar amount
 * and the server's rate beside the rupee figures; a rupee lot says nothing of dollars.
 */
export function BlockBuyDialog({
  item,
  usd,
  onClose,
  onDone,
}: {
  item: BlockItem;
  /** The server's USD rate (useUsdRate), the one a USD lot is charged at. */
  usd: UsdRate;
  onClose: () => void;
  /** A buy went through: the list and balance reload (the result sheet stays until closed). */
  onDone: () => void;
}) {
  const form = useBlockBuy(item, usd, onDone);
  if (form.result) return <OrderResultSheet order={form.result} onClose={onClose} decimals={item.decimals} />;
  return form.step === 'review' ? (
    <BlockReview item={item} form={form} usd={usd} onClose={onClose} />
  ) : (
    <BlockOrder item={item} form={form} usd={usd} onClose={onClose} />
  );
}

/** What each step of the sheet is given: the lot, the form's state and the dollar's rate. */
interface StepProps {
  item: BlockItem;
  form: BlockBuy;
  usd: UsdRate;
  onClose: () => void;
}

/** The order step: quantity and what it costs, as the server prices it. */
function BlockOrder({ item, form, usd, onClose }: StepProps) {
  const { t } = useTranslation();
  const config = useConfig();
  const f = form.figures;
  const money = (m: string) => formatMoney(m, config.currency);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    form.review();
  }

  return (
    <Dialog
      open
      sheet
      onClose={onClose}
      title={t('block.buyTitle', { name: item.name, code: displayCode(item.tag) })}
    >
      <form className={ui.dialogForm} onSubmit={onSubmit} noValidate>
        <dl className={`${ui.statRow} ${s.stats} ${s.stats3}`}>
          <Stat label={t('block.marketPrice')}>
            {item.market_price > 0 ? regionPrice(config, item.type, item.market_price, item.decimals) : '—'}
          </Stat>
          <Stat label={t('block.blockPrice')}>
            <span data-testid="block-price">{regionPrice(config, item.type, item.price, item.decimals)}</span>
          </Stat>
          <Stat label={t('block.minQuantity')}>{formatNumber(form.minimum, 0)}</Stat>
        </dl>
        <QuantityStepper
          label={t('block.quantity')}
          value={form.text}
          onChange={form.change}
          onBlur={form.leave}
          onDecrease={form.decrease}
          onIncrease={form.increase}
          increaseDisabled={form.atMax}
          hint={
            form.affordable
              ? t('block.maxHint', { max: formatNumber(form.maximum, 0) })
              : t('errors.insufficientFunds')
          }
          error={form.hint ? t('errors.belowMinimumQuantity') : null}
          aside={
            form.affordable && f !== null ? (
              <button type="button" className={`${ui.textButton} ${s.labelButton}`} onClick={form.useMax}>
                {t('block.useMax')}
              </button>
            ) : null
          }
        />
        <dl className={s.summary} data-testid="block-figures">
          {form.converts && (
            <SummaryRow label={t('block.valueIn', { unit: form.local.unit })}>
              <span data-testid="block-value-local">{formatMoney(form.valueLocalMinor, form.local)}</span>
            </SummaryRow>
          )}
          <SummaryRow label={t('trade.estValue')}>{f ? money(f.value) : '—'}</SummaryRow>
          <SummaryRow label={t('trade.charges.total')}>
            <span data-testid="block-charges">{f ? money(f.charges.total) : '—'}</span>
          </SummaryRow>
          <SummaryRow label={t('trade.estCost')} total>
            <span data-testid="block-total">{f ? money(f.net) : '—'}</span>
          </SummaryRow>
          <SummaryRow label={t('block.available')}>{f ? money(f.available) : '—'}</SummaryRow>
        </dl>
        {form.quote.error && !f && <LoadError error={form.quote.error} onRetry={form.quote.reload} />}
        {form.converts && (
          <p className={s.summaryHint}>
            <UsdRateLine rate={usd} />
          </p>
        )}
        <p className={s.summaryHint}>{t('block.lockInNote')}</p>
        <ClosedNotice item={item} />
        <div className={ui.dialogActions}>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="buy" unready={form.blocked !== null || f === null}>
            {t('block.review')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The review: what is bought, each charge, the transaction password, and the one button that buys. */
function BlockReview({ item, form, usd, onClose }: StepProps) {
  const { t } = useTranslation();
  const config = useConfig();
  const f = form.figures;
  const money = (m: string) => formatMoney(m, config.currency);
  const code = displayCode(item.tag);
  const closed = item.session !== null && !item.session.open;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void form.submit();
  }

  return (
    <Dialog open sheet onClose={onClose} title={t('block.reviewTitle', { code })}>
      <form className={ui.dialogForm} onSubmit={onSubmit} noValidate>
        <dl className={s.summary} data-testid="block-review">
          <SummaryRow label={t('trade.contract.instrument')}>
            {code} · {item.name}
          </SummaryRow>
          <SummaryRow label={t('trade.review.side')}>{t('trade.buy')}</SummaryRow>
          <SummaryRow label={t('trade.orderType')}>
            {t(item.mold === 'finalize' ? 'qip.orderType' : 'block.orderType')}
          </SummaryRow>
          <SummaryRow label={t('trade.product.label')}>{t('trade.product.delivery')}</SummaryRow>
          <SummaryRow label={t('trade.quantity')}>{formatNumber(form.quantity, 0)}</SummaryRow>
          <SummaryRow label={t('block.blockPrice')}>
            {regionPrice(config, item.type, item.price, item.decimals)}
          </SummaryRow>
          {f ? (
            <>
              <SummaryRow label={t('trade.estValue')}>{money(f.value)}</SummaryRow>
              <ChargesRows charges={f.charges} />
              <SummaryRow label={t('trade.estCost')} total>
                <span data-testid="review-net">{money(f.net)}</span>
              </SummaryRow>
              <SummaryRow label={t('trade.review.available')}>{money(f.available)}</SummaryRow>
            </>
          ) : (
            <Skeleton height={200} />
          )}
        </dl>
        {form.converts && (
          <p className={s.summaryHint}>
            <UsdRateLine rate={usd} />
          </p>
        )}
        {form.short && (
          <p className={ui.failureBox} role="alert">
            {t('errors.insufficientFunds')}
          </p>
        )}
        <p className={s.summaryHint}>{t('block.reviewHint')}</p>
        <ClosedNotice item={item} />
        <PinInput
          label={t('tradePassword.code')}
          value={form.pin}
          onChange={form.setPin}
          error={form.pinError ? t(form.pinError) : null}
        />
        {form.failure && (
          <div className={ui.failureBox} role="alert" data-testid="block-failure">
            <strong>{t('block.failed')}</strong>
            {form.failure !== ERR.server && <span>{t(form.failure)}</span>}
          </div>
        )}
        <div className={ui.dialogActions}>
          <Button variant="ghost" onClick={form.back}>
            {t('block.edit')}
          </Button>
          <MoneyButton
            type="submit"
            variant="buy"
            call={form.call}
            loading={form.busy}
            unready={form.pin.length === 0}
            disabled={closed || f === null || form.short}
          >
            {t('trade.confirm.buy')}
          </MoneyButton>
        </div>
      </form>
    </Dialog>
  );
}

/** A lot trades at once at the live market's price, so only in its session (the server's clock). */
function ClosedNotice({ item }: { item: BlockItem }) {
  const { t } = useTranslation();
  const { exchange } = useDates();
  if (item.session === null || item.session.open || item.session.opens_at == null) return null;
  return (
    <p className={ui.closedNotice} data-testid="block-closed" role="status">
      {t('block.closed', {
        time: exchange(item.session.opens_at, scheduleOf(undefined, item.type), 'weekdayClock'),
      })}
    </p>
  );
}
