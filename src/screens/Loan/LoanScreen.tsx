import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import { formatMoney, formatNumber } from '../../shared/format';
import { unitsToMinor } from '../../shared/money';
import { DEFAULT_CREDIT_SCORE, MIN_LOAN } from '../../shared/rules';
import {
  AmountField,
  AsOf,
  Button,
  Dialog,
  LoadError,
  MoneyButton,
  PageHeader,
  Skeleton,
  ui,
} from '../../ui';
import s from '../_parts/wallet/wallet.module.css';
import { LoanTerms, TotalRepayable } from './LoanTerms';
import { useLoan, useLoanApply } from './useLoan';

/** Loan (SPEC §2): amount due, credit score, remaining amount; apply dialog; history link. */
export default function LoanScreen() {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { data } = useLoan();
  const loan = data.data;
  const apply = useLoanApply(loan?.remainingAmount);
  const value = (v: string | undefined) =>
    v === undefined ? data.error ? '—' : <Skeleton width={90} height={18} /> : formatMoney(v, currency);
  const minText = formatMoney(unitsToMinor(MIN_LOAN), currency, 0);

  return (
    <main className={ui.page}>
      <PageHeader title={t('wallet.loan.title')} back={PATHS.account} />
      {/*
        Borrowed money is not the user's own — an outlined, neutral card led by what
        is owed (principal with the interest accrued), never the bright balance card.
      */}
      <section className={s.loanCard} aria-label={t('wallet.loan.summary')} data-testid="loan-card">
        <span className={s.loanTag}>{t('wallet.loan.borrowedTag')}</span>
        <span className={s.heroLabel}>{t('wallet.loan.amountDue')}</span>
        <span className={s.loanValue} data-testid="loan-due">
          {value(loan?.amountDue)}
        </span>
        <dl className={s.heroGrid}>
          <div>
            <dt>{t('wallet.loan.accrued')}</dt>
            <dd data-testid="loan-accrued">{value(loan?.accrued)}</dd>
          </div>
          <div>
            <dt>{t('wallet.loan.remaining')}</dt>
            <dd data-testid="loan-remaining">{value(loan?.remainingAmount)}</dd>
          </div>
          <div>
            <dt>{t('wallet.loan.creditScore')}</dt>
            <dd data-testid="credit-score">{loan ? (loan.creditScore ?? DEFAULT_CREDIT_SCORE) : '—'}</dd>
          </div>
          <div>
            <dt>{t('watch.loan.rate')}</dt>
            <dd>
              {loan ? t('watch.loan.ratePerYear', { rate: formatNumber(loan.terms.interestRate) }) : '—'}
            </dd>
          </div>
        </dl>
        {data.stale && <AsOf at={data.updatedAt} stale className={s.heroAsOf} />}
      </section>
      {data.error && !loan && <LoadError error={data.error} onRetry={data.reload} />}
      <div className={`${ui.form} ${s.flushTop}`}>
        <MoneyButton block onClick={apply.show} disabled={!loan}>
          {t('wallet.loan.apply')}
        </MoneyButton>
        <div className={`${s.cardActions} ${s.flush}`}>
          <Link to={PATHS.loanApplication} className={`${ui.textLink} ${s.centred}`}>
            {t('wallet.loan.applicationStatus')}
          </Link>
          <Link to={PATHS.loanRecords} className={`${ui.textLink} ${s.centred}`}>
            {t('wallet.loan.history')}
          </Link>
        </div>
        {loan && <LoanTerms loan={loan} currency={currency} />}
        <div className={s.notice}>
          <ul className={s.noticeList}>
            <li>{t('wallet.loan.noticeMin', { min: minText })}</li>
            <li>{t('wallet.loan.noticeReview')}</li>
            {loan && (
              <li>
                {t('wallet.loan.noticeInterest', {
                  rate: formatNumber(loan.terms.interestRate),
                  days: loan.terms.tenureDays ?? 0,
                  late: formatNumber(loan.terms.lateChargeRate),
                })}
              </li>
            )}
            <li>{t('wallet.loan.noticeRepay')}</li>
          </ul>
        </div>
      </div>

      <Dialog open={apply.open} onClose={apply.close} title={t('wallet.loan.applyTitle')} sheet>
        <form
          className={`${s.stack} ${s.stackWide}`}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void apply.submit();
          }}
        >
          <AmountField
            label={t('wallet.loan.amount')}
            value={apply.amount}
            onChange={apply.setAmount}
            autoFocus
            symbol={currency.symbol}
            placeholder={t('wallet.loan.placeholder', { min: MIN_LOAN })}
            error={
              apply.inline &&
              t(apply.inline, { max: loan ? formatMoney(loan.remainingAmount, currency) : '' })
            }
            hint={loan && t('wallet.loan.available', { amount: formatMoney(loan.remainingAmount, currency) })}
          />
          {loan && <TotalRepayable amount={apply.amount} loan={loan} currency={currency} />}
          {loan && <LoanTerms loan={loan} currency={currency} />}
          <div className={`${s.cardActions} ${s.flush}`}>
            <Button variant="ghost" onClick={apply.close}>
              {t('common.cancel')}
            </Button>
            <MoneyButton
              type="submit"
              block
              call={apply.call}
              loading={apply.busy}
              disabled={!apply.canSubmit}
            >
              {t('wallet.loan.submit')}
            </MoneyButton>
          </div>
        </form>
      </Dialog>
    </main>
  );
}
