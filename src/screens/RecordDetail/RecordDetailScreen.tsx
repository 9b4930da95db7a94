import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../api/useConfig';
import { walletRecordsPath } from '../../paths';
import type { RechargeRecord, WithdrawRecord } from '../../shared/contract/wallet';
import { formatMoney } from '../../shared/format';
import {
  CardNumber,
  ErrorState,
  loadFailed,
  ObjectStates,
  PageHeader,
  Skeleton,
  SkeletonList,
  StatusChip,
  ui,
  useDates,
} from '../../ui';
import { recordStatus } from '../_parts/wallet/status';
import s from '../_parts/wallet/wallet.module.css';
import { useRecordDetail } from './useRecordDetail';

/** Recharge/withdraw detail (SPEC §2): the record in full; 'load failed, retry' when it fails. */
export default function RecordDetailScreen() {
  const { t } = useTranslation();
  const { valid, type, record, detail, reload } = useRecordDetail();
  const back = walletRecordsPath(type === 'withdraw' ? 'withdraw' : 'recharge');

  return (
    <main className={ui.page}>
      <PageHeader title={t('wallet.detail.title')} back={back} />
      {!valid ? (
        <ErrorState message={t('wallet.detail.loadFailed')} />
      ) : (
        <ObjectStates
          data={record}
          error={loadFailed(detail.error, 'wallet.detail.loadFailed')}
          onRetry={reload}
          loading={
            <>
              <div className={s.detailHead}>
                <Skeleton width={160} height={36} />
              </div>
              <SkeletonList rows={5} height={40} />
            </>
          }
        >
          {(shown) => <RecordDetail record={shown} />}
        </ObjectStates>
      )}
    </main>
  );
}

function RecordDetail({ record }: { record: RechargeRecord | WithdrawRecord }) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { dateTime } = useDates();
  const status = recordStatus(record);
  const time = (ms: number) => <time dateTime={new Date(ms).toISOString()}>{dateTime(ms)}</time>;
  return (
    <>
      <section className={s.detailHead} aria-label={t(`wallet.records.type.${record.type}`)}>
        <span className={s.detailLabel}>{t(`wallet.records.type.${record.type}`)}</span>
        <span className={s.detailAmount}>{formatMoney(record.count, currency)}</span>
        <StatusChip tone={status.tone}>{t(status.key)}</StatusChip>
      </section>
      <div className={s.listCard}>
        <dl className={s.detailList}>
          <Row label={t('wallet.detail.number')}>{record.id}</Row>
          <Row label={t('wallet.detail.type')}>{t(`wallet.records.type.${record.type}`)}</Row>
          <Row label={t('wallet.detail.amount')}>{formatMoney(record.count, currency)}</Row>
          <Row label={t('wallet.detail.actual')}>{formatMoney(record.actual, currency)}</Row>
          {record.type === 'recharge' ? (
            <Row label={t('wallet.detail.method')}>
              {record.method === 'bank' ? t('wallet.recharge.bank') : record.method}
            </Row>
          ) : (
            <Row label={t('wallet.detail.card')}>
              {record.bank.bank} <CardNumber value={record.bank.bank_card} />
            </Row>
          )}
          <Row label={t('wallet.detail.status')}>{t(status.key)}</Row>
          {record.type === 'withdraw' && record.hold && (
            <Row label={t('wallet.detail.hold')}>
              <span data-hold={record.hold}>{t(record.hold)}</span>
            </Row>
          )}
          <Row label={t('wallet.detail.created')}>{time(record.created_at)}</Row>
          <Row label={t('wallet.detail.updated')}>{time(record.updated_at)}</Row>
        </dl>
      </div>
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={s.detailRow}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
