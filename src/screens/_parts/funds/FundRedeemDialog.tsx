import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../api/useConfig';
import type { Fund, FundOrder, FundPosition } from '../../../shared/contract/funds';
import { formatMoney, formatNumber } from '../../../shared/format';
import { isEquityOriented } from '../../../shared/funds';
import { Button, Dialog, MoneyButton, TextField, ui, useDates } from '../../../ui';
import s from '../invest/invest.module.css';
import { useNavDate } from './labels';
import { useFundRedeem } from './useFundRedeem';

/**
 * Redeem units on any business day at the next NAV: the units (or all free ones), a guide to
 * their worth at the last NAV, when they are paid, and the exit load and STT that apply.
 */
export function FundRedeemDialog({
  fund,
  position,
  onClose,
  onDone,
}: {
  fund: Fund;
  position: FundPosition;
  onClose: () => void;
  onDone: (order: FundOrder) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const navDate = useNavDate();
  const form = useFundRedeem(fund, position, onDone);
  const next = fund.next_nav;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void form.submit();
  }

  return (
    <Dialog open sheet onClose={onClose} title={t('fund.redeemFrom', { name: fund.name })}>
      <form className={ui.dialogForm} onSubmit={onSubmit} noValidate>
        <TextField
          label={t('fund.units')}
          inputMode="decimal"
          autoComplete="off"
          value={form.text}
          onChange={form.change}
          hint={t('fund.freeUnits', { units: formatNumber(Number(position.free_units), 3) })}
          error={form.error}
          end={
            <button type="button" className={ui.textButton} onClick={form.chooseAll} aria-pressed={form.all}>
              {t('fund.all')}
            </button>
          }
        />
        {form.estimateMinor !== null && (
          <p className={s.summaryHint} data-testid="fund-estimate">
            {t('fund.estimate', {
              amount: formatMoney(form.estimateMinor, config.currency),
              nav: formatNumber(Number(fund.nav), 4),
              date: navDate(fund.nav_date),
            })}
          </p>
        )}
        <p className={s.summaryHint}>
          {t('fund.redeemNav', {
            date: navDate(next.date),
            time: exchange(next.published_by, 'NSE', 'weekdayClock'),
          })}
          . {t('fund.cutoff', { time: exchange(next.cutoff_at, 'NSE', 'clock') })}
        </p>
        {fund.exit_load && (
          <p className={s.summaryHint}>
            {t('fund.loadNote', { pct: fund.exit_load.percent, count: fund.exit_load.days })}
          </p>
        )}
        {isEquityOriented(fund.category) && <p className={s.summaryHint}>{t('fund.sttNote')}</p>}
        <div className={ui.dialogActions}>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <MoneyButton type="submit" call={form.call} loading={form.busy} unready={!form.valid}>
            {t('fund.confirmRedeem')}
          </MoneyButton>
        </div>
      </form>
    </Dialog>
  );
}
