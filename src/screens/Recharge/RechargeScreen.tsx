import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS, walletRecordsPath } from '../../paths';
import { formatMoney } from '../../shared/format';
import { unitsToMinor } from '../../shared/money';
import { MIN_RECHARGE } from '../../shared/rules';
import {
  AmountField,
  Button,
  Dialog,
  HeaderLink,
  IconCheck,
  IconShield,
  MoneyButton,
  PageHeader,
  TextField,
  ui,
} from '../../ui';
import s from '../_parts/wallet/wallet.module.css';
import { useRecharge } from './useRecharge';

/** Recharge (SPEC §2): method (bank only), amount, submit; a confirmation leads to the records. */
export default function RechargeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { currency } = useConfig();
  const r = useRecharge();

  return (
    <main className={ui.page}>
      <PageHeader
        title={t('wallet.recharge.title')}
        back={PATHS.account}
        actions={<HeaderLink to={walletRecordsPath('recharge')} label={t('wallet.records.short')} />}
      />
      <form
        className={ui.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void r.submit();
        }}
      >
        <div className={s.formCard}>
          <fieldset
            className={s.fieldset}
            aria-describedby={r.methodError ? 'recharge-method-error' : undefined}
          >
            <legend className={s.legend}>{t('wallet.recharge.method')}</legend>
            <label className={s.option}>
              <input
                type="radio"
                name="method"
                value="bank"
                checked={r.method === 'bank'}
                onChange={() => r.setMethod('bank')}
              />
              <span className={s.optionText}>
                <span className={s.optionTitle}>{t('wallet.recharge.bank')}</span>
                <span className={s.optionSub}>{t('wallet.recharge.bankSub')}</span>
              </span>
            </label>
            {r.methodError && (
              <span id="recharge-method-error" className={ui.error} role="alert">
                {t(r.methodError)}
              </span>
            )}
          </fieldset>
          <AmountField
            label={t('wallet.recharge.amount')}
            value={r.amount}
            onChange={r.setAmount}
            placeholder={t('wallet.recharge.placeholder', { min: MIN_RECHARGE })}
            symbol={currency.symbol}
            error={r.amountError && t(r.amountError)}
            hint={t('wallet.recharge.minHint', { min: formatMoney(unitsToMinor(MIN_RECHARGE), currency, 0) })}
          />
          <TextField
            label={t('wallet.recharge.reference')}
            value={r.reference}
            onChange={r.setReference}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={30}
            error={r.referenceError && t(r.referenceError)}
            hint={t('wallet.recharge.referenceHint')}
          />
        </div>
        {/* Always on screen, never dismissed — the one line a scam's victim needs. */}
        <p className={s.safety} data-testid="never-pay">
          <IconShield size={20} aria-hidden="true" />
          <span>{t('wallet.recharge.neverPay')}</span>
        </p>
        <MoneyButton type="submit" block call={r.call} loading={r.busy} unready={!r.ready}>
          {t('wallet.recharge.submit')}
        </MoneyButton>
        <div className={s.notice}>
          <ul className={s.noticeList}>
            <li>{t('wallet.recharge.creditTime')}</li>
            <li>{t('wallet.recharge.noticeRecords')}</li>
          </ul>
        </div>
      </form>

      <Dialog open={r.done !== null} onClose={r.closeDone} title={t('wallet.recharge.successTitle')}>
        {r.done && (
          <div className={s.done}>
            <span className={s.doneIcon} aria-hidden="true">
              <IconCheck size={28} />
            </span>
            <span className={s.doneAmount}>{formatMoney(r.done.count, currency)}</span>
            <p className={s.doneText}>{t('wallet.recharge.success')}</p>
            <p className={s.doneText}>{t('wallet.recharge.creditTime')}</p>
            <div className={s.stack}>
              <Button block onClick={() => navigate(walletRecordsPath('recharge'))}>
                {t('wallet.recharge.viewRecords')}
              </Button>
              <Button block variant="ghost" onClick={r.closeDone}>
                {t('wallet.recharge.done')}
              </Button>
            </div>
          </div>
        )}
      </Dialog>
    </main>
  );
}
