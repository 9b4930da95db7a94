import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { formatMoney } from '../../shared/format';
import {
  AsOf,
  Button,
  EmptyState,
  ErrorState,
  IconWallet,
  MoneyButton,
  PageHeader,
  Skeleton,
  SkeletonList,
  TextField,
} from '../../ui';
import { OrdersLink } from '../invest/parts';
import s from '../wallet/wallet.module.css';
import { useWithdraw } from './useWithdraw';

/** Withdraw (SPEC §2): choose a bank card, enter an amount, submit; then the withdraw records. */
export default function WithdrawScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { currency } = useConfig();
  const w = useWithdraw();
  const minText = formatMoney(w.minimum * 100, currency, 0);

  const header = (
    <PageHeader
      title={t('wallet.withdraw.title')}
      back="/account"
      actions={<OrdersLink to="/withdraw-records" label={t('wallet.records.short')} />}
    />
  );

  if (w.cards.data === undefined) {
    return (
      <main className={s.page}>
        {header}
        {w.cards.error ? (
          <ErrorState message={t('wallet.withdraw.cardsFailed')} onRetry={w.cards.reload} />
        ) : (
          <SkeletonList rows={3} height={64} />
        )}
      </main>
    );
  }

  if (w.usable.length === 0) {
    return (
      <main className={s.page}>
        {header}
        <EmptyState title={t('wallet.withdraw.noCards')} icon={<IconWallet size={28} />}>
          <p className={s.doneText}>{t('wallet.withdraw.noCardsHint')}</p>
          <Button onClick={() => navigate('/settings/bank-cards')}>{t('wallet.withdraw.addCard')}</Button>
        </EmptyState>
      </main>
    );
  }

  return (
    <main className={s.page}>
      {header}
      <form
        className={s.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void w.submit();
        }}
      >
        <div className={s.formCard}>
          <fieldset className={s.fieldset}>
            <legend className={s.legend}>{t('wallet.withdraw.card')}</legend>
            {w.usable.map((card) => (
              <label key={card.id} className={s.option}>
                <input
                  type="radio"
                  name="bank"
                  value={card.id}
                  checked={w.bankId === card.id}
                  onChange={() => w.choose(card.id)}
                />
                <span className={s.optionText}>
                  <span className={s.optionTitle}>{card.bank}</span>
                  <span className={s.optionSub}>
                    {card.bank_card} · {card.bank_user}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <TextField
            label={t('wallet.withdraw.amount')}
            value={w.amount}
            onChange={w.setAmount}
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            start={currency.symbol}
            placeholder={t('wallet.withdraw.placeholder', { min: w.minimum })}
            error={w.inline && t(w.inline, { min: minText })}
            hint={t('wallet.withdraw.minHint', { min: minText })}
          />
          <div className={s.balanceLine}>
            <span>
              {t('wallet.withdraw.available')}{' '}
              <strong data-testid="available-balance">
                {w.info.data ? formatMoney(w.info.data.money, currency) : <Skeleton width={80} height={16} />}
              </strong>
            </span>
            {w.info.stale && <AsOf at={w.info.updatedAt} stale />}
            <button type="button" className={s.linkButton} onClick={w.fillAll}>
              {t('wallet.withdraw.all')}
            </button>
          </div>
        </div>
        <MoneyButton type="submit" block loading={w.busy} disabled={!w.canSubmit}>
          {t('wallet.withdraw.submit')}
        </MoneyButton>
        <div className={s.notice}>
          <ul className={s.noticeList}>
            <li>{t('wallet.withdraw.creditTime')}</li>
            <li>{t('wallet.withdraw.reserved')}</li>
          </ul>
        </div>
      </form>
    </main>
  );
}
