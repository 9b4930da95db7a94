import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import type { BlockItem } from '../../shared/contract/invest';
import { formatMoney, formatNumber } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { displayCode } from '../../shared/rules';
import { Button, Dialog, MoneyButton, ui, useDates } from '../../ui';
import { PinInput } from '../../ui/PinInput';
import s from '../_parts/invest/invest.module.css';
import { QuantityStepper, regionPrice, Stat, SummaryRow } from '../_parts/invest/parts';
import { UsdRateLine } from '../_parts/invest/UsdRateLine';
import type { UsdRate } from '../_parts/invest/useUsdRate';
import { useBlockBuy } from './useBlockTrading';

/**
 * The block trading / QIP buy dialog (SPEC §2): market price, block price, minimum buy quantity,
 * transaction code, quantity and total amount; QIP also shows the converted amount at the
 * server's USD rate with its as-of time (block trading does whenever the instrument's currency is
 * not the account's). The server converts at its own rate when it fills and records it.
 */
export function BlockBuyDialog({
  item,
  balance,
  alwaysConvert,
  usd,
  onClose,
  onDone,
}: {
  item: BlockItem;
  balance: string | undefined;
  /** QIP shows the converted amount even when the rate is 1:1. */
  alwaysConvert: boolean;
  /** The server's USD rate (useUsdRate), the one the buy is charged at. */
  usd: UsdRate;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const form = useBlockBuy(item, balance, usd, onDone);
  const showConversion = alwaysConvert || form.converts;
  const { exchange } = useDates();
  // A lot trades at once at the live market's price, so only in its session (the server's clock).
  const closed = item.session !== null && !item.session.open;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void form.submit();
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
            form.affordable && balance !== undefined ? (
              <button type="button" className={`${ui.textButton} ${s.labelButton}`} onClick={form.useMax}>
                {t('block.useMax')}
              </button>
            ) : null
          }
        />
        <PinInput
          label={t('block.code')}
          value={form.pin}
          onChange={form.setPin}
          error={form.pinError ? t(form.pinError) : null}
        />
        <dl className={s.summary}>
          <SummaryRow label={t('block.total')} total={!showConversion}>
            <span data-testid="block-total">{formatMoney(form.totalLocalMinor, form.local)}</span>
          </SummaryRow>
          {showConversion && (
            <SummaryRow label={t('qip.converted')} total>
              <span data-testid="block-converted">
                {form.chargeMinor === null ? '—' : formatMoney(form.chargeMinor, config.currency)}
              </span>
            </SummaryRow>
          )}
          <SummaryRow label={t('block.fee')}>
            {form.feeMinor === null ? '—' : formatMoney(form.feeMinor, config.currency)}
          </SummaryRow>
          <SummaryRow label={t('block.available')}>
            {balance === undefined ? '—' : formatMoney(balance, config.currency)}
          </SummaryRow>
        </dl>
        {showConversion && (
          <p className={s.summaryHint}>
            {form.converts ? <UsdRateLine rate={usd} /> : t('qip.noConversion')}
          </p>
        )}
        <p className={s.summaryHint}>{t('block.lockInNote')}</p>
        {closed && item.session?.opens_at != null && (
          <p className={ui.closedNotice} data-testid="block-closed" role="status">
            {t('block.closed', {
              time: exchange(item.session.opens_at, scheduleOf(undefined, item.type), 'weekdayClock'),
            })}
          </p>
        )}
        <div className={ui.dialogActions}>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <MoneyButton
            type="submit"
            call={form.call}
            loading={form.busy}
            unready={!form.valid}
            disabled={closed}
          >
            {t('block.confirm')}
          </MoneyButton>
        </div>
      </form>
    </Dialog>
  );
}
