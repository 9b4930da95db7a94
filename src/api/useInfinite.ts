import { useCallback, useMemo, useRef, useState } from 'react';
import { stableJson } from '../shared/call';
import type { EndpointName } from '../shared/contract/index';
import { PAGE_SIZE } from '../shared/rules';
import { call, type Input, type Output } from './client';
import { useWatch, type Watched } from './hooks';

/** Endpoints that answer a page: `{ rows, count }` and take `page` and `limit`. */
type RowOf<K extends EndpointName> = Output<K> extends { rows: Array<infer R>; count: number } ? R : never;

interface More<R> {
  /**
   * The first page these pages continue, by content: a first page that changed (new rows, new
   * input) drops them; the same page again (the device's copy, then the network's) keeps them,
   * so rows the user scrolled to do not vanish and load a second time.
   */
  after: string | undefined;
  rows: R[];
  next: number;
  loading: boolean;
  error: string | null;
}

/**
 * An infinite list (SPEC "infinite paging"): the first page is watched like any other call (kept
 * on the device for offline, with its as-of time), the following pages are fetched on demand and
 * appended. Rows are de-duplicated by id, because offset paging shifts when new rows arrive at the
 * top while the user scrolls.
 */
export function useInfinite<K extends EndpointName>(
  name: K,
  base: Omit<Input<K>, 'page' | 'limit'>,
  limit = PAGE_SIZE,
): Omit<Watched<Output<K>>, 'data'> & {
  rows: RowOf<K>[] | undefined;
  count: number;
  hasMore: boolean;
  loadingMore: boolean;
  moreError: string | null;
  loadMore: () => void;
  reload: () => void;
} {
  const first = useWatch(name, { ...base, page: 1, limit } as Input<K>, 0);
  const firstData = first.data as { rows: RowOf<K>[]; count: number } | undefined;
  const key = stableJson(base);
  const firstKey = useMemo(
    () => (firstData === undefined ? undefined : `${key}:${stableJson(firstData)}`),
    [key, firstData],
  );
  const [more, setMore] = useState<More<RowOf<K>>>({
    after: undefined,
    rows: [],
    next: 2,
    loading: false,
    error: null,
  });
  const current =
    more.after === firstKey ? more : { after: firstKey, rows: [], next: 2, loading: false, error: null };
  /** The list (its input's key) a page is being fetched for; one request at a time per list. */
  const busy = useRef<string | null>(null);
  const keyRef = useRef(key);
  keyRef.current = key;

  const loaded = (current.next - 1) * limit;
  const count = firstData?.count ?? 0;
  const hasMore = firstData !== undefined && loaded < count;

  const loadMore = useCallback(() => {
    const askedFor = keyRef.current;
    if (busy.current === askedFor || !hasMore || firstData === undefined) return;
    busy.current = askedFor;
    const page = current.next;
    setMore({ ...current, loading: true, error: null });
    void call(name, { ...base, page, limit } as Input<K>).then((result) => {
      if (busy.current === askedFor) busy.current = null;
      // The user switched tabs meanwhile: this page belongs to a list no longer shown.
      if (askedFor !== keyRef.current) return;
      setMore((m) => {
        const same = m.after === firstKey ? m : current;
        if (!result.ok) return { ...same, loading: false, error: result.error };
        const rows = (result.data as { rows: RowOf<K>[] }).rows;
        return {
          after: firstKey,
          rows: [...same.rows, ...rows],
          next: page + 1,
          loading: false,
          error: null,
        };
      });
    });
  }, [hasMore, firstData, firstKey, current, name, base, limit]);

  const seen = new Set<unknown>();
  const rows =
    firstData === undefined
      ? undefined
      : [...firstData.rows, ...current.rows].filter((row) => {
          const id = (row as { id?: unknown }).id;
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });

  return {
    error: first.error,
    loading: first.loading,
    updatedAt: first.updatedAt,
    source: first.source,
    stale: first.stale,
    intervalMs: first.intervalMs,
    rows,
    count,
    hasMore,
    loadingMore: current.loading,
    moreError: current.error,
    loadMore,
    reload: first.reload,
  };
}
