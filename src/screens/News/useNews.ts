import { useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { NEWS_PAGE_SIZES } from '../../shared/rules';

export type NewsPageSize = (typeof NEWS_PAGE_SIZES)[number];

/** Reads ?page & ?size, falling back to page 1 and SPEC's default size (10) for anything else. */
export function newsPaging(params: URLSearchParams): { page: number; size: NewsPageSize } {
  const size = Number(params.get('size'));
  const page = Number(params.get('page'));
  return {
    size: (NEWS_PAGE_SIZES as readonly number[]).includes(size) ? (size as NewsPageSize) : NEWS_PAGE_SIZES[0],
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/**
 * The news list (SPEC §2): real server paging. Page and size live in the address so returning from
 * an article lands on the same page; the worker keeps each page for offline reading.
 */
export function useNews() {
  const [params, setParams] = useSearchParams();
  const { page, size } = newsPaging(params);
  const list = useWatch('newsList', { page, limit: size }, 0);
  const pages = list.data ? pageCount(list.data.count, size) : null;
  const go = (next: { page?: number; size?: NewsPageSize }) => {
    const n = { page, size, ...next };
    setParams({ page: String(n.page), size: String(n.size) }, { replace: true });
  };
  return {
    list,
    page,
    size,
    pages,
    setPage: (p: number) => go({ page: p }),
    // A new size starts again from the first page: the old page number means other articles.
    setSize: (s: NewsPageSize) => go({ size: s, page: 1 }),
  };
}
