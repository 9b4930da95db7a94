import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import type { RechargeRecord, WithdrawRecord } from '../../shared/contract/wallet';
import { formatMoney } from '../../shared/format';
import { AsOf, EmptyState, ErrorState, PageHeader, Pager, SkeletonList, Tabs } from '../../ui';
import { StatusChip, useDates } from '../invest/parts';
import { recordStatus } from '../wallet/status';
import s from '../wallet/wallet.module.css';
import { type RecordsTab, useWalletRecords } from './useWalletRecords';

const TAB_PATH: Record<RecordsTab, string> = {
  recharge: '/recharge-records/recharge',
  withdraw: '/withdraw-records',
};

/** Recharge and withdraw records (SPEC §2): amount, type, status, actual amount, time; paged. */
export default function WalletRecordsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab, page, pages, list, rows, setPage } = useWalletRecords();

  return (
    <main className={s.page}>
      <PageHeader title={t('wallet.records.title')} back="/account" />
      <Tabs<RecordsTab>
        id="records-tab"
        label={t('wallet.records.title')}
        value={tab}
        onChange={(next) => navigate(TAB_PATH[next], { replace: true })}
        items={[
          { value: 'recharge', label: t('wallet.records.recharge') },
          { value: 'withdraw', label: t('wallet.records.withdraw') },
        ]}
      />
      <section role="tabpanel" aria-labelledby={`records-tab-${tab}`}>
        {list.stale && (
          <div style={{ padding: '12px 16px 0' }}>
            <AsOf at={list.updatedAt} stale />
          </div>
        )}
        {rows === undefined ? (
          list.error ? (
            <ErrorState message={t(list.error)} onRetry={list.reload} />
          ) : (
            <SkeletonList rows={5} height={64} />
          )
        ) : rows.length === 0 ? (
          <EmptyState title={t(`wallet.records.empty.${tab}`)}>
            <Link to={tab === 'recharge' ? '/recharge' : '/withdraw'} className={s.sectionLink}>
              {t(tab === 'recharge' ? 'wallet.account.recharge' : 'wallet.account.withdraw')}
            </Link>
          </EmptyState>
        ) : (
          <>
            <div className={s.listCard}>
              <ul className={s.rows} aria-label={t(`wallet.records.${tab}`)}>
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
      </section>
    </main>
  );
}

function RecordItem({ record }: { record: RechargeRecord | WithdrawRecord }) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { dateTime } = useDates();
  const status = recordStatus(record);
  const to = `/account/recharge-withdraw/${record.id}?type=${record.type}`;
  return (
    <li data-record={record.id}>
      <Link to={to} className={s.row}>
        <span className={s.rowMain}>
          <span className={s.rowTitle}>
            {t(`wallet.records.type.${record.type}`)}{' '}
            <span className="num">{formatMoney(record.count, currency)}</span>
          </span>
          <span className={s.rowSub}>
            {t('wallet.records.actual', { amount: formatMoney(record.actual, currency) })}
          </span>
          <time className={s.rowSub} dateTime={new Date(record.created_at).toISOString()}>
            {dateTime(record.created_at)}
          </time>
        </span>
        <span className={s.rowSide}>
          <StatusChip tone={status.tone}>{t(status.key)}</StatusChip>
        </span>
      </Link>
    </li>
  );
}
