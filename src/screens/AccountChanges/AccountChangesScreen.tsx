import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { BillRow } from '../../shared/contract/wallet';
import { formatMoney, trendClass } from '../../shared/format';
import { displayCode } from '../../shared/rules';
import {
  EmptyState,
  IconReceipt,
  ListStates,
  LoadMore,
  PageHeader,
  StaleLine,
  Tabs,
  ui,
  useDates,
} from '../../ui';

import { reasonKey } from '../_parts/wallet/status';
import s from '../_parts/wallet/wallet.module.css';
import { type ChangesTab, useAccountChanges } from './useAccountChanges';

/** Account changes (SPEC §2): the ledger with tabs all, income, expense; pages load on scroll. */
export default function AccountChangesScreen() {
  const { t } = useTranslation();
  const { tab, tabs, setTab, bills } = useAccountChanges();
  const rows = bills.rows;

  return (
    <main className={ui.page}>
      <PageHeader title={t('wallet.changes.title')} back={PATHS.account} />
      <Tabs<ChangesTab>
        id="changes-tab"
        label={t('wallet.changes.title')}
        value={tab}
        onChange={setTab}
        items={tabs.map((value) => ({ value, label: t(`wallet.changes.tabs.${value}`) }))}
      />
      <section role="tabpanel" aria-labelledby={`changes-tab-${tab}`}>
        <StaleLine of={bills} />
        <ListStates
          rows={rows}
          error={bills.error}
          onRetry={bills.reload}
          skeleton={{ rows: 6, height: 52 }}
          empty={
            <EmptyState title={t(`wallet.changes.empty.${tab}`)} icon={<IconReceipt size={28} />}>
              <Link to={PATHS.recharge} className={ui.textLink}>
                {t('wallet.account.recharge')}
              </Link>
            </EmptyState>
          }
        >
          {(rows) => (
            <>
              <div className={s.listCard}>
                <ul className={`${ui.plainList} ${s.rows}`} aria-label={t(`wallet.changes.tabs.${tab}`)}>
                  {rows.map((bill) => (
                    <BillItem key={bill.id} bill={bill} />
                  ))}
                </ul>
              </div>
              <LoadMore
                hasMore={bills.hasMore}
                loading={bills.loadingMore}
                error={bills.moreError && t(bills.moreError)}
                onMore={bills.loadMore}
              />
            </>
          )}
        </ListStates>
      </section>
    </main>
  );
}

function BillItem({ bill }: { bill: BillRow }) {
  const { t, i18n } = useTranslation();
  const { currency } = useConfig();
  const { dateTime } = useDates();
  const income = bill.type === 'income';
  return (
    <li data-bill={bill.reason}>
      <div className={`${s.row} ${s.rowReflow}`}>
        <span className={s.rowMain}>
          <span className={`${ui.name} ${s.rowTitle}`}>
            {bill.symbol
              ? t('wallet.changes.ofInstrument', {
                  reason: t(reasonKey(bill.reason, (k) => i18n.exists(k))),
                  code: displayCode(bill.symbol),
                })
              : t(reasonKey(bill.reason, (k) => i18n.exists(k)))}
          </span>
          <time className={s.rowSub} dateTime={new Date(bill.created_at).toISOString()}>
            {dateTime(bill.created_at)}
          </time>
        </span>
        <span className={s.rowSide}>
          <span className={`${s.rowAmount} ${trendClass(income ? 1 : -1)}`}>
            <span aria-hidden="true">{income ? '▲ ' : '▼ '}</span>
            {income ? '+' : '-'}
            {formatMoney(bill.amount, currency)}
          </span>
          <span className={s.rowSub}>
            {t('wallet.changes.balanceAfter', { amount: formatMoney(bill.balance, currency) })}
          </span>
        </span>
      </div>
    </li>
  );
}
