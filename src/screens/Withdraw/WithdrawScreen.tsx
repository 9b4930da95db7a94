import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import { formatMoney } from '../../shared/format';
import { unitsToMinor } from '../../shared/money';
import { TradePasswordPrompt } from '../../shell/TradePasswordPrompt';
import {
  AmountField,
  AsOf,
  Button,
  CardNumber,
  EmptyState,
  HeaderLink,
  IconWallet,
  ListStates,
  loadFailed,
  MoneyButton,
  PageHeader,
  Skeleton,
  ui,
} from '../../ui';
import s from '../_parts/wallet/wallet.module.css';
import { useWithdraw } from './useWithdraw';

/** Withdraw (SPEC §2): choose a bank card, enter an amount, submit; then the withdraw records. */
export default function WithdrawScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { currency } = useConfig();
  const w = useWithdraw();
  const minText = formatMoney(unitsToMinor(w.minimum), currency, 0);

  const header = (
    <PageHeader
      title={t('wallet.withdraw.title')}
      back={PATHS.account}
      actions={<HeaderLink to={PATHS.withdrawRecords} label={t('wallet.records.short')} />}
    />
  );

  return (
    <main className={ui.page}>
      {header}
      <ListStates
        rows={w.cards.data && w.usable}
        error={loadFailed(w.cards.error, 'wallet.withdraw.cardsFailed')}
        onRetry={w.cards.reload}
        skeleton={{ rows: 3, height: 64 }}
        empty={
          <EmptyState title={t('wallet.withdraw.noCards')} icon={<IconWallet size={28} />}>
            <p className={s.doneText}>{t('wallet.withdraw.noCardsHint')}</p>
            <Button onClick={() => navigate(PATHS.bankCards)}>{t('wallet.withdraw.addCard')}</Button>
          </EmptyState>
        }
      >
        {() => (
          <>
            <form
              className={ui.form}
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
                          <CardNumber value={card.bank_card} /> · {card.bank_user}
                        </span>
                      </span>
                    </label>
                  ))}
                </fieldset>
                <AmountField
                  label={t('wallet.withdraw.amount')}
                  value={w.amount}
                  onChange={w.setAmount}
                  symbol={currency.symbol}
                  placeholder={t('wallet.withdraw.placeholder', { min: w.minimum })}
                  error={w.inline && t(w.inline, { min: minText })}
                  hint={t('wallet.withdraw.minHint', { min: minText })}
                />
                <div className={s.balanceLine}>
                  <span>
                    {t('wallet.withdraw.available')}{' '}
                    <strong data-testid="available-balance">
                      {w.info.data ? (
                        formatMoney(w.info.data.money, currency)
                      ) : (
                        <Skeleton width={80} height={16} />
                      )}
                    </strong>
                  </span>
                  {w.info.stale && <AsOf at={w.info.updatedAt} stale />}
                  <button type="button" className={ui.textButton} onClick={w.fillAll}>
                    {t('wallet.withdraw.all')}
                  </button>
                </div>
              </div>
              <MoneyButton
                type="submit"
                block
                call={w.call}
                loading={w.busy}
                disabled={!w.canSubmit || w.hasTradePassword === undefined}
              >
                {t('wallet.withdraw.submit')}
              </MoneyButton>
              <div className={s.notice}>
                <ul className={s.noticeList}>
                  <li>{t('wallet.withdraw.creditTime')}</li>
                  <li>{t('wallet.withdraw.reserved')}</li>
                  <li>{t('wallet.withdraw.newCardNote')}</li>
                </ul>
              </div>
            </form>
            {w.asking && w.hasTradePassword !== undefined && (
              <TradePasswordPrompt
                hasPassword={w.hasTradePassword}
                message={t('tradePassword.askWithdraw', {
                  amount: formatMoney(unitsToMinor(w.units ?? 0), currency, 0),
                })}
                onClose={w.cancelAsking}
                onSubmit={w.confirm}
              />
            )}
          </>
        )}
      </ListStates>
    </main>
  );
}
