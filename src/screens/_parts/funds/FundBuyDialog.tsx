import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../api/useConfig';
import type { Fund, FundOrder } from '../../../shared/contract/funds';
import { formatMoney } from '../../../shared/format';
import { AmountField, Button, Dialog, MoneyButton, ui, useDates } from '../../../ui';
import s from '../invest/invest.module.css';
import { SummaryRow } from '../invest/parts';
import { useNavDate } from './labels';
import { FundDisclosure } from './Riskometer';
import { useFundBuy } from './useFundBuy';

/**
 * Invest in a fund (SPEC §2's buy with confirmation): the amount, when its units are priced and
 * published, the stamp duty, the costs the scheme states, and no promised figure.
 */
export function FundBuyDialog({
  fund,
  onClose,
  onDone,
}: {
  fund: Fund;
  onClose: () => void;
  onDone: (order: FundOrder) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  const navDate = useNavDate();
  const form = useFundBuy(fund, onDone);
  const next = fund.next_nav;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void form.submit();
  }

  return (
    <Dialog open sheet onClose={onClose} title={t('fund.investIn', { name: fund.name })}>
      <form className={ui.dialogForm} onSubmit={onSubmit} noValidate>
        <AmountField
          label={t('fund.amount')}
          symbol={config.currency.symbol}
          value={form.text}
          onChange={form.change}
          hint={t('fund.amountHint', { amount: formatMoney(form.minimum, config.currency, 0) })}
          error={form.error}
        />
        <dl className={s.summary}>
          <SummaryRow label={t('fund.stampDuty')}>
            {form.stampMinor === null ? '—' : formatMoney(form.stampMinor, config.currency)}
          </SummaryRow>
          <SummaryRow label={t('fund.expenseRatio')}>
            {t('fund.expenseValue', { pct: fund.expense_ratio })}
          </SummaryRow>
          <SummaryRow label={t('fund.exitLoad')}>
            {fund.exit_load
              ? t('fund.exitLoadValue', { pct: fund.exit_load.percent, count: fund.exit_load.days })
              : t('fund.exitLoadNone')}
          </SummaryRow>
        </dl>
        <p className={s.summaryHint} data-testid="fund-next-nav">
          {t('fund.nextNav', {
            date: navDate(next.date),
            time: exchange(next.published_by, 'NSE', 'weekdayClock'),
          })}
          . {t('fund.cutoff', { time: exchange(next.cutoff_at, 'NSE', 'clock') })}
        </p>
        <p className={s.summaryHint}>{t('fund.unitsNote')}</p>
        <FundDisclosure compact />
        <div className={ui.dialogActions}>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <MoneyButton type="submit" call={form.call} loading={form.busy} unready={!form.valid}>
            {form.amountMinor === null
              ? t('fund.invest')
              : t('fund.confirmBuy', { amount: formatMoney(form.amountMinor, config.currency, 0) })}
          </MoneyButton>
        </div>
      </form>
    </Dialog>
  );
}
