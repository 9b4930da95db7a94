import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS, recordDetailPath, walletRecordsPath } from '../../paths';
import type { RechargeRecord, WithdrawRecord } from '../../shared/contract/wallet';
import { formatMoney } from '../../shared/format';
import {
  EmptyState,
  IconDeposit,
  IconWithdraw,
  ListStates,
  PageHeader,
  Pager,
  StaleLine,
  StatusChip,
  Tabs,
  ui,
  useDates,
} from '../../ui';
import { isPending, recordStatus } from '../_parts/wallet/status';
import s from '../_parts/wallet/wallet.module.css';
import { type RecordsTab, useWalletRecords } from './useWalletRecords';

/** Recharge and withdraw records (SPEC §2): amount, type, status, actual amount, time; paged. */
export default function WalletRecordsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab, page, pages, list, rows, setPage } = useWalletRecords();

  return (
    <main className={ui.page}>
      <PageHeader title={t('wallet.records.title')} back={PATHS.account} />
      <Tabs<RecordsTab>
        id="records-tab"
        label={t('wallet.records.title')}
        value={tab}
        onChange={(next) => navigate(walletRecordsPath(next), { replace: true })}
        items={[
          { value: 'recharge', label: t('wallet.records.recharge') },
          { value: 'withdraw', label: t('wallet.records.withdraw') },
        ]}
      />
      <section role="tabpanel" aria-labelledby={`records-tab-${tab}`}>
        <StaleLine of={list} />
        <ListStates<RechargeRecord | WithdrawRecord>
          rows={rows}
          error={list.error}
          onRetry={list.reload}
          skeleton={{ rows: 5, height: 64 }}
          empty={
            <EmptyState
              title={t(`wallet.records.empty.${tab}`)}
              icon={tab === 'recharge' ? <IconDeposit size={28} /> : <IconWithdraw size={28} />}
            >
              <Link to={tab === 'recharge' ? PATHS.recharge : PATHS.withdraw} className={ui.textLink}>
                {t(tab === 'recharge' ? 'wallet.account.recharge' : 'wallet.account.withdraw')}
              </Link>
            </EmptyState>
          }
        >
          {(rows) => (
            <>
              <div className={s.listCard}>
                <ul className={`${ui.plainList} ${s.rows}`} aria-label={t(`wallet.records.${tab}`)}>
                  {rows.map((record) => (
                    <RecordItem key={record.id} record={record} />
                  ))}
                </ul>
              </div>
              <Pager
                page={page}
                pages={pages}
                onPage={setPage}
                labels={{
                  nav: t('wallet.records.pages'),
                  previous: t('wallet.records.previous'),
                  next: t('wallet.records.next'),
                  status: t('wallet.records.pageOf', { page, pages }),
                }}
              />
            </>
          )}
        </ListStates>
      </section>
    </main>
  );
}

function RecordItem({ record }: { record: RechargeRecord | WithdrawRecord }) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { dateTime } = useDates();
  const status = recordStatus(record);
  const to = recordDetailPath(record.id, record.type);
  return (
    <li data-record={record.id}>
      <Link to={to} className={s.row}>
        <span className={s.rowMain}>
          <span className={`${ui.name} ${s.rowTitle}`}>
            {t(`wallet.records.type.${record.type}`)}{' '}
            <span className="num">{formatMoney(record.count, currency)}</span>
          </span>
          <span className={s.rowSub}>
            {t('wallet.records.actual', { amount: formatMoney(record.actual, currency) })}
          </span>
          <time className={s.rowSub} dateTime={new Date(record.created_at).toISOString()}>
            {dateTime(record.created_at)}
          </time>
          {/* Why a payout waits for the operator, while it waits. */}
          {record.type === 'withdraw' && record.hold && isPending(record) && (
            <span className={s.rowHold} data-hold={record.hold}>
              {t(record.hold)}
            </span>
          )}
        </span>
        <span className={s.rowSide}>
          <StatusChip tone={status.tone}>{t(status.key)}</StatusChip>
        </span>
      </Link>
    </li>
  );
}
