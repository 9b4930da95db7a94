import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Input, Output } from '../../../api/client';
import { useWatch } from '../../../api/hooks';
import { stableJson } from '../../../shared/call';
import { PAGE_SIZE } from '../../../shared/rules';
import { Button, LoadError, Skeleton, SkeletonList, StaleLine, ui } from '../../../ui';
import s from './market.module.css';
import { useNearEnd } from './nearEnd';

/** The paged lists of SPEC §7 (10 rows a page, a total count). */
export type PagedName = 'stockList' | 'currencyList';
type Row<K extends PagedName> = Output<K>['rows'][number];
type BaseInput<K extends PagedName> = Omit<Input<K>, 'page' | 'limit'>;

interface PageStatus {
  loaded: boolean;
  rows: number;
  count: number;
  error: string | null;
  updatedAt: number | null;
  stale: boolean;
  reload: () => void;
}

export interface PagedListProps<K extends PagedName> {
  name: K;
  input: BaseInput<K>;
  /** Each loaded page keeps polling at this interval (live prices down the whole list). */
  intervalMs: number;
  label: string;
  renderRow: (row: Row<K>) => ReactNode;
  /** Shown when the first page has no rows. */
  empty: ReactNode;
  /** The list's own failure text (SPEC §8 "Failed to load … list", "Search failed"); else the error's. */
  failed?: string;
  /** The element the list scrolls in, when not the page. */
  root?: React.RefObject<HTMLElement | null>;
}

/**
 * An infinite list of 10-row pages: the next page is fetched when the end of the list comes within
 * 50 px of the bottom. Every loaded page is its own shared poll, so prices stay live all the way
 * down; a new input (search, region) starts again from page 1.
 */
export function PagedList<K extends PagedName>(props: PagedListProps<K>) {
  return <Pages key={`${props.name}:${stableJson(props.input)}`} {...props} />;
}

function Pages<K extends PagedName>({
  name,
  input,
  intervalMs,
  label,
  renderRow,
  empty,
  failed,
  root,
}: PagedListProps<K>) {
  const { t } = useTranslation();
  const [pages, setPages] = useState(1);
  const [status, setStatus] = useState<Record<number, PageStatus>>({});
  const marker = useRef<HTMLDivElement>(null);
  const onStatus = useCallback(
    (page: number, st: PageStatus) => setStatus((all) => ({ ...all, [page]: st })),
    [],
  );

  const first = status[1];
  const last = status[pages];
  const total = first?.count ?? 0;
  const more = pages * PAGE_SIZE < total;
  const loadMore = useCallback(() => setPages((p) => (p === pages ? p + 1 : p)), [pages]);
  useNearEnd(marker, loadMore, more && last?.loaded === true && last.error === null, root);

  const shown = Object.values(status).reduce((n, st) => n + st.rows, 0);
  return (
    <div className={s.paged} data-pages={pages} data-rows={shown} data-total={total}>
      {first && <StaleLine of={first} />}
      <ul className={`${ui.plainList} ${s.rows}`} aria-label={label} aria-busy={!first?.loaded || undefined}>
        {Array.from({ length: pages }, (_, i) => i + 1).map((page) => (
          <Page
            key={page}
            name={name}
            input={input}
            page={page}
            intervalMs={intervalMs}
            renderRow={renderRow}
            onStatus={onStatus}
          />
        ))}
      </ul>
      {!first?.loaded ? (
        <SkeletonList rows={6} height={52} />
      ) : first.error && first.rows === 0 ? (
        <LoadError error={failed ?? first.error} onRetry={first.reload} />
      ) : total === 0 ? (
        empty
      ) : last && !last.loaded ? (
        <div className={s.more} role="status" aria-label={t('common.loading')}>
          <Skeleton height={44} />
        </div>
      ) : last?.error && pages > 1 ? (
        <div className={s.more}>
          <Button variant="secondary" onClick={last.reload}>
            {t('common.retry')}
          </Button>
        </div>
      ) : !more && total > PAGE_SIZE ? (
        <p className={s.end}>{t('markets.endOfList')}</p>
      ) : null}
      <div ref={marker} aria-hidden="true" />
    </div>
  );
}

function Page<K extends PagedName>({
  name,
  input,
  page,
  intervalMs,
  renderRow,
  onStatus,
}: {
  name: K;
  input: BaseInput<K>;
  page: number;
  intervalMs: number;
  renderRow: (row: Row<K>) => ReactNode;
  onStatus: (page: number, st: PageStatus) => void;
}) {
  const w = useWatch(name, { ...input, page, limit: PAGE_SIZE } as Input<K>, intervalMs);
  const data = w.data as { rows: Row<K>[]; count: number } | undefined;
  const { reload } = w;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reported when what the parent reads changes
  useEffect(() => {
    onStatus(page, {
      loaded: !w.loading,
      rows: data?.rows.length ?? 0,
      count: data?.count ?? 0,
      error: w.error,
      updatedAt: w.updatedAt,
      stale: w.stale,
      reload,
    });
  }, [page, data, w.loading, w.error, w.updatedAt, w.stale]);
  return <>{data?.rows.map(renderRow)}</>;
}
