import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { LoanRecord } from '../../shared/contract/wallet';
import { formatMoney } from '../../shared/format';
import { LOAN_STATE } from '../../shared/status';
import {
  ConfirmDialog,
  EmptyState,
  IconCoins,
  ListStates,
  MoneyButton,
  PageHeader,
  StatusChip,
  ui,
  useDates,
} from '../../ui';
import inv from '../_parts/invest/invest.module.css';
import { SummaryRow } from '../_parts/invest/parts';
import { loanState } from '../_parts/wallet/status';
import s from '../_parts/wallet/wallet.module.css';
import { useLoanRecords } from './useLoanRecords';

/** Loan records (SPEC §2): type, amount, state (0–5), time; repay an unpaid loan. */
export default function LoanRecordsScreen() {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { list, info, confirming, setConfirming, busy, repay, call } = useLoanRecords();
  const rows = list.data?.rows;

  return (
    <main className={ui.page}>
      <PageHeader title={t('wallet.loanRecords.title')} back={PATHS.loan} />
      <ListStates
        rows={rows}
        error={list.error}
        onRetry={list.reload}
        skeleton={{ rows: 4, height: 64 }}
        empty={
          <EmptyState title={t('wallet.loanRecords.empty')} icon={<IconCoins size={28} />}>
            <Link to={PATHS.loan} className={ui.textLink}>
              {t('wallet.loan.apply')}
            </Link>
          </EmptyState>
        }
      >
        {(rows) => (
          <div className={s.listCard}>
            <ul className={`${ui.plainList} ${s.rows}`} aria-label={t('wallet.loanRecords.title')}>
              {rows.map((loan) => (
                <LoanItem key={loan.id} loan={loan} onRepay={() => setConfirming(loan)} />
              ))}
            </ul>
          </div>
        )}
      </ListStates>
      <ConfirmDialog
        open={confirming !== null}
        title={t('wallet.loanRecords.repayTitle')}
        busy={busy}
        money={call}
        confirmLabel={t('wallet.loanRecords.repay')}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && void repay(confirming)}
        message={
          confirming && (
            <dl className={inv.summary}>
              <SummaryRow label={t('wallet.loan.principal')}>
                {formatMoney(confirming.count, currency)}
              </SummaryRow>
              <SummaryRow label={t('wallet.loan.accrued')}>
                {formatMoney(confirming.accrued, currency)}
              </SummaryRow>
              <SummaryRow label={t('wallet.loanRecords.repayAmount')} total>
                {formatMoney(confirming.due, currency)}
              </SummaryRow>
              <SummaryRow label={t('wallet.account.available')}>
                {info.data ? formatMoney(info.data.money, currency) : '—'}
              </SummaryRow>
            </dl>
          )
        }
      />
    </main>
  );
}

function LoanItem({ loan, onRepay }: { loan: LoanRecord; onRepay: () => void }) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { dateTime } = useDates();
  const state = loanState(loan.state);
  return (
    <li data-loan={loan.id}>
      <div className={s.row}>
        <span className={s.rowMain}>
          <span className={`${ui.name} ${s.rowTitle}`}>
            {t('wallet.loanRecords.type')} <span className="num">{formatMoney(loan.count, currency)}</span>
          </span>
          <time className={s.rowSub} dateTime={new Date(loan.created_at).toISOString()}>
            {dateTime(loan.created_at)}
          </time>
          {loan.state === LOAN_STATE.unpaid && (
            <span className={s.rowSub} data-testid="loan-owed">
              {t('wallet.loan.owedLine', {
                due: formatMoney(loan.due, currency),
                accrued: formatMoney(loan.accrued, currency),
              })}
              {loan.due_at !== null && ` · ${t('wallet.loan.dueBy', { date: dateTime(loan.due_at) })}`}
            </span>
          )}
        </span>
        <span className={`${s.rowSide} ${s.rowSideSpaced}`}>
          <StatusChip tone={state.tone}>{t(state.key)}</StatusChip>
          {loan.state === LOAN_STATE.unpaid && (
            <MoneyButton
              onClick={onRepay}
              aria-label={t('wallet.loanRecords.repayFor', { amount: formatMoney(loan.due, currency) })}
            >
              {t('wallet.loanRecords.repay')}
            </MoneyButton>
          )}
        </span>
      </div>
    </li>
  );
}
