import type { ReactNode } from 'react';
import type { Watched } from '../../../api/hooks';
import { AsOf, EmptyState, ListStates, PageHeader, Tabs, ui } from '../../../ui';
import s from './invest.module.css';

/**
 * The orders screen of an invest product (IPO, block/QIP, funds): header, sticky status tabs, and
 * the tab's orders (rows or cards), with their as-of line when they are not live. `children` (dialogs)
 * follow the list.
 */
export function OrdersPage<Tab extends string, Row extends { id: number }>({
  title,
  back,
  tabId,
  tab,
  tabs,
  onTab,
  orders,
  empty,
  card,
  listClassName,
  skeletonHeight = 150,
  children,
}: {
  title: string;
  back: string;
  /** Prefix of the tab ids (`<tabId>-<value>` labels the panel). */
  tabId: string;
  tab: Tab;
  tabs: { value: Tab; label: string }[];
  onTab: (tab: Tab) => void;
  orders: Watched<{ rows: Row[] }> & { reload: () => void };
  /** Translated. */
  empty: string;
  card: (row: Row) => ReactNode;
  /** The list's look when its items are not cards (the order rows of OrderLine). */
  listClassName?: string;
  skeletonHeight?: number;
  children?: ReactNode;
}) {
  return (
    <main className={ui.page}>
      <PageHeader title={title} back={back} />
      <div className={s.sticky}>
        <Tabs<Tab> id={tabId} label={title} value={tab} onChange={onTab} items={tabs} />
      </div>
      <section role="tabpanel" aria-labelledby={`${tabId}-${tab}`}>
        {orders.stale && (
          <div className={s.rateNote}>
            <AsOf at={orders.updatedAt} stale />
          </div>
        )}
        <ListStates
          rows={orders.data?.rows}
          error={orders.error}
          onRetry={orders.reload}
          skeleton={{ rows: 4, height: skeletonHeight }}
          empty={<EmptyState title={empty} />}
        >
          {(rows) => <ul className={listClassName ?? s.list}>{rows.map(card)}</ul>}
        </ListStates>
      </section>
      {children}
    </main>
  );
}
