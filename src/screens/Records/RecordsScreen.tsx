import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { PATHS } from '../../paths';
import type { OrderRow } from '../../shared/contract/trading';
import { PAGE_SIZE } from '../../shared/rules';
import { EmptyState, IconHistory, ListStates, LoadMore, PageHeader, StaleLine, Tabs, ui } from '../../ui';
import s from '../_parts/invest/invest.module.css';
import { CancelOrderDialog } from '../_parts/trading/CancelOrderDialog';
import { ContractNoteSheet } from '../_parts/trading/ContractNoteSheet';
import { ModifyOrderSheet } from '../_parts/trading/ModifyOrderSheet';
import { type OrderActions, OrderDetailSheet } from '../_parts/trading/OrderDetailSheet';
import { OrderLine } from '../_parts/trading/OrderLine';
import o from '../_parts/trading/orders.module.css';
import { RECORD_TABS, type RecordTab, useRecords } from './useRecords';

/**
 * Stock records (SPEC §2): tabs by status, one row per order (OrderLine); a row opens its detail,
 * where a pending order is modified or cancelled and a filled one's contract note opens.
 */
export default function RecordsScreen() {
  const { t } = useTranslation();
  const { tab, setTab, status, first, paging, hasMore, cancel, modify, opened, closeOpened } = useRecords();
  // A notification of a fill opens here with its contract note (`?order=<no>`, src/shared/notices.ts).
  const [noteFor, setNoteFor] = useState<string | null>(opened);
  const [detail, setDetail] = useState<OrderRow | null>(null);
  const actions: OrderActions = { modify: modify.open, cancel: cancel.setConfirming, note: setNoteFor };
  const rows = first.data?.rows;

  return (
    <main className={ui.page}>
      <PageHeader title={t('records.title')} back={PATHS.trade} />
      <div className={s.sticky}>
        <Tabs<RecordTab>
          id="records-tab"
          label={t('records.title')}
          value={tab}
          onChange={setTab}
          items={RECORD_TABS.map((value) => ({ value, label: t(`records.tabs.${value}`) }))}
        />
      </div>
      <section role="tabpanel" aria-labelledby={`records-tab-${tab}`}>
        <StaleLine of={first} />
        <ListStates
          rows={rows}
          error={first.error}
          onRetry={first.reload}
          skeleton={{ rows: 8, height: 64 }}
          empty={
            <EmptyState title={t(`records.empty.${tab}`)} icon={<IconHistory size={28} />}>
              <Link to={PATHS.markets}>{t('records.browse')}</Link>
            </EmptyState>
          }
        >
          {(rows) => (
            <>
              <ul className={o.list}>
                {rows.map((order) => (
                  <OrderLine key={order.id} order={order} onOpen={setDetail} />
                ))}
                {paging.rest.map((page) => (
                  <RecordsPage
                    key={page}
                    status={status}
                    page={page}
                    onSettled={paging.settle}
                    onOpen={setDetail}
                  />
                ))}
              </ul>
              <LoadMore hasMore={hasMore} loading={paging.loading} onMore={paging.more} />
            </>
          )}
        </ListStates>
      </section>
      <OrderDetailSheet
        // The order as the last poll has it (a pending one may fill while its detail is open).
        order={(detail && rows?.find((r) => r.id === detail.id)) ?? detail}
        onClose={() => setDetail(null)}
        actions={actions}
      />
      <CancelOrderDialog cancel={cancel} />
      <ModifyOrderSheet modify={modify} />
      <ContractNoteSheet
        no={noteFor}
        onClose={() => {
          setNoteFor(null);
          closeOpened();
        }}
      />
    </main>
  );
}

function RecordsPage({
  status,
  page,
  onSettled,
  onOpen,
}: {
  status: number | undefined;
  page: number;
  onSettled: (page: number) => void;
  onOpen: (order: OrderRow) => void;
}) {
  const { data, loading } = useWatch('orderList', { status, page, limit: PAGE_SIZE }, 0);
  useEffect(() => {
    if (!loading) onSettled(page);
  }, [loading, page, onSettled]);
  return (
    <>
      {data?.rows.map((order) => (
        <OrderLine key={order.id} order={order} onOpen={onOpen} />
      ))}
    </>
  );
}
