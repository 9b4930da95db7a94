import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { formatMoney } from '../../shared/format';
import { DEFAULT_CREDIT_SCORE, MIN_LOAN } from '../../shared/rules';
import { AsOf, Button, Dialog, ErrorState, MoneyButton, PageHeader, Skeleton, TextField } from '../../ui';
import s from '../wallet/wallet.module.css';
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
  const minText = formatMoney(MIN_LOAN * 100, currency, 0);

  return (
    <main className={s.page}>
      <PageHeader title={t('wallet.loan.title')} back="/account" />
      <section className={s.hero} aria-label={t('wallet.loan.summary')}>
        <span className={s.heroLabel}>{t('wallet.loan.remaining')}</span>
        <span className={s.heroValue} data-testid="loan-remaining">
          {value(loan?.remainingAmount)}
        </span>
        <dl className={s.heroGrid}>
          <div>
            <dt>{t('wallet.loan.amountDue')}</dt>
            <dd data-testid="loan-due">{value(loan?.amountDue)}</dd>
          </div>
          <div>
            <dt>{t('wallet.loan.creditScore')}</dt>
            <dd data-testid="credit-score">{loan ? (loan.creditScore ?? DEFAULT_CREDIT_SCORE) : '—'}</dd>
          </div>
        </dl>
        {data.stale && <AsOf at={data.updatedAt} stale className={s.heroAsOf} />}
      </section>
      {data.error && !loan && <ErrorState message={t(data.error)} onRetry={data.reload} />}
      <div className={s.form} style={{ paddingTop: 0 }}>
        <MoneyButton block onClick={apply.show} disabled={!loan}>
          {t('wallet.loan.apply')}
        </MoneyButton>
        <div className={s.cardActions} style={{ padding: 0 }}>
          <Link to="/LoanApplication" className={s.sectionLink} style={{ justifyContent: 'center' }}>
            {t('wallet.loan.applicationStatus')}
          </Link>
          <Link to="/loan-records" className={s.sectionLink} style={{ justifyContent: 'center' }}>
            {t('wallet.loan.history')}
          </Link>
        </div>
        <div className={s.notice}>
          <ul className={s.noticeList}>
            <li>{t('wallet.loan.noticeMin', { min: minText })}</li>
            <li>{t('wallet.loan.noticeReview')}</li>
            <li>{t('wallet.loan.noticeRepay')}</li>
          </ul>
        </div>
      </div>

      <Dialog open={apply.open} onClose={apply.close} title={t('wallet.loan.applyTitle')} sheet>
        <form
          className={s.stack}
          style={{ gap: 16 }}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void apply.submit();
          }}
        >
          <TextField
            label={t('wallet.loan.amount')}
            value={apply.amount}
            onChange={apply.setAmount}
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            autoFocus
            start={currency.symbol}
            placeholder={t('wallet.loan.placeholder', { min: MIN_LOAN })}
            error={
              apply.inline &&
              t(apply.inline, { max: loan ? formatMoney(loan.remainingAmount, currency) : '' })
            }
            hint={loan && t('wallet.loan.available', { amount: formatMoney(loan.remainingAmount, currency) })}
          />
          <div className={s.cardActions} style={{ padding: 0 }}>
            <Button variant="ghost" onClick={apply.close}>
              {t('common.cancel')}
            </Button>
            <MoneyButton type="submit" block loading={apply.busy} disabled={!apply.canSubmit}>
              {t('wallet.loan.submit')}
            </MoneyButton>
          </div>
        </form>
      </Dialog>
    </main>
  );
}
