import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { LoanRecord } from '../../shared/contract/wallet';
import { formatMoney } from '../../shared/format';
import { LOAN_STATE } from '../../shared/status';
import {
  EmptyState,
  IconCheck,
  IconClose,
  IconCoins,
  ListStates,
  PageHeader,
  StatusChip,
  ui,
  useDates,
} from '../../ui';
import { loanState } from '../_parts/wallet/status';
import s from '../_parts/wallet/wallet.module.css';
import { useLoanApplication } from './useLoanApplication';

type StepState = 'done' | 'current' | 'failed' | 'todo';

/** Where each step of an application stands, from the loan state (0–5). */
function steps(state: LoanRecord['state']): Array<{ key: string; at: StepState }> {
  const reviewed = state === LOAN_STATE.approved || state === LOAN_STATE.unpaid || state === LOAN_STATE.paid;
  return [
    { key: 'submitted', at: 'done' },
    {
      key: state === LOAN_STATE.rejected ? 'rejected' : 'review',
      at: state === LOAN_STATE.rejected ? 'failed' : reviewed ? 'done' : 'current',
    },
    {
      key: 'disbursed',
      at:
        state === LOAN_STATE.unpaid || state === LOAN_STATE.paid
          ? 'done'
          : state === LOAN_STATE.approved
            ? 'current'
            : 'todo',
    },
    {
      key: 'repaid',
      at: state === LOAN_STATE.paid ? 'done' : state === LOAN_STATE.unpaid ? 'current' : 'todo',
    },
  ];
}

const STEP_CLASS: Record<StepState, string> = {
  done: s.stepDone ?? '',
  current: s.stepCurrent ?? '',
  failed: s.stepFailed ?? '',
  todo: '',
};

/** The status of the latest loan application (SPEC /LoanApplication). */
export default function LoanApplicationScreen() {
  const { t } = useTranslation();
  const { list } = useLoanApplication();

  return (
    <main className={ui.page}>
      <PageHeader title={t('wallet.application.title')} back={PATHS.loan} />
      <ListStates
        rows={list.data?.rows.slice(0, 1)}
        error={list.error}
        onRetry={list.reload}
        skeleton={{ rows: 4, height: 48 }}
        empty={
          <EmptyState title={t('wallet.application.none')} icon={<IconCoins size={28} />}>
            <Link to={PATHS.loan} className={ui.textLink}>
              {t('wallet.loan.apply')}
            </Link>
          </EmptyState>
        }
      >
        {(rows) => rows.map((latest) => <Application key={latest.id} latest={latest} />)}
      </ListStates>
    </main>
  );
}

/** The latest application: its amount and status, and the steps it has been through. */
function Application({ latest }: { latest: LoanRecord }) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { dateTime } = useDates();
  return (
    <>
      <section className={s.detailHead} aria-label={t('wallet.application.title')}>
        <span className={s.detailLabel}>{t('wallet.application.amount')}</span>
        <span className={s.detailAmount}>{formatMoney(latest.count, currency)}</span>
        <StatusChip tone={loanState(latest.state).tone}>
          <span data-testid="application-state">{t(loanState(latest.state).key)}</span>
        </StatusChip>
      </section>
      <div className={s.listCard}>
        <ol className={s.steps} aria-label={t('wallet.application.progress')}>
          {steps(latest.state).map((step) => (
            <li
              key={step.key}
              className={`${s.step} ${STEP_CLASS[step.at]}`}
              aria-current={step.at === 'current' ? 'step' : undefined}
            >
              <span className={s.stepDot} aria-hidden="true">
                {step.at === 'done' ? (
                  <IconCheck size={14} />
                ) : step.at === 'failed' ? (
                  <IconClose size={14} />
                ) : null}
              </span>
              <span>
                <span className={s.stepTitle}>{t(`wallet.application.steps.${step.key}`)}</span>
                <span className="visually-hidden"> — {t(`wallet.application.at.${step.at}`)}</span>
                {step.key === 'submitted' && (
                  <span className={`${s.stepSub} ${s.block}`}>{dateTime(latest.created_at)}</span>
                )}
              </span>
            </li>
          ))}
        </ol>
      </div>
      <div className={`${s.cardActions} ${s.spacedTop}`}>
        <Link to={PATHS.loanRecords} className={`${ui.textLink} ${s.centred}`}>
          {latest.state === LOAN_STATE.unpaid ? t('wallet.application.repay') : t('wallet.loan.history')}
        </Link>
      </div>
    </>
  );
}
