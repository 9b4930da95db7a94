import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoanData } from '../../shared/contract/wallet';
import { type CurrencyDisplay, formatMoney, formatNumber } from '../../shared/format';
import { loanInterestMinor, percentNumberToBps } from '../../shared/loans';
import { unitsToMinor } from '../../shared/money';
import { DEFAULT_CREDIT_SCORE, parseWholeAmount } from '../../shared/rules';
import w from '../_parts/wallet/wallet.module.css';
import s from './loanTerms.module.css';

/**
 * What a loan costs, shown before applying — the terms the server applies: the yearly
 * rate, the tenure (or none: repay when you choose), late charges, and the credit score on its
 * scale (from 0, no upper end, every account starting at DEFAULT_CREDIT_SCORE; nothing in the
 * server changes it) and how it makes the credit limit.
 */
export function LoanTerms({ loan, currency }: { loan: LoanData; currency: CurrencyDisplay }) {
  const { t } = useTranslation();
  const { terms } = loan;
  const titleId = useId();
  return (
    <section className={w.panel} aria-labelledby={titleId}>
      <h2 id={titleId} className={s.title}>
        {t('watch.loan.terms')}
      </h2>
      <dl className={s.rows}>
        <div className={s.row}>
          <dt>{t('watch.loan.rate')}</dt>
          <dd>{t('watch.loan.ratePerYear', { rate: formatNumber(terms.interestRate) })}</dd>
        </div>
        <div className={s.row}>
          <dt>{t('watch.loan.tenure')}</dt>
          <dd>
            {terms.tenureDays === null
              ? t('watch.loan.noTenure')
              : t('watch.loan.days', { count: terms.tenureDays })}
          </dd>
        </div>
        <div className={s.row}>
          <dt>{t('watch.loan.late')}</dt>
          <dd>
            {terms.lateChargeRate === 0
              ? t('watch.loan.noLate')
              : t('watch.loan.latePerDay', { rate: formatNumber(terms.lateChargeRate) })}
          </dd>
        </div>
      </dl>
      <p className={s.score}>
        {t('watch.loan.score', {
          score: loan.creditScore,
          start: DEFAULT_CREDIT_SCORE,
          perPoint: formatMoney(loan.creditPerPoint, currency),
          limit: formatMoney(loan.creditLimit, currency),
        })}
      </p>
    </section>
  );
}

/** The total to repay for a typed amount, beside the amount field (nothing until it is a number). */
export function TotalRepayable({
  amount,
  loan,
  currency,
}: {
  amount: string;
  loan: LoanData;
  currency: CurrencyDisplay;
}) {
  const { t } = useTranslation();
  const units = parseWholeAmount(amount);
  if (units === null) return null;
  const principal = unitsToMinor(units);
  const { interestRate, tenureDays } = loan.terms;
  const interest =
    tenureDays === null ? 0 : loanInterestMinor(principal, percentNumberToBps(interestRate), tenureDays);
  const total = principal + interest;
  return (
    <p data-testid="loan-total" className={s.total}>
      {t(tenureDays === null && interestRate > 0 ? 'watch.loan.totalAccrues' : 'watch.loan.total', {
        total: formatMoney(total, currency),
      })}
    </p>
  );
}
