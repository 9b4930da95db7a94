import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INFINITE_SCROLL_PX } from '../shared/rules';
import { Button } from './Button';
import s from './ui.module.css';

/**
 * How many pages of an infinite list are shown. Pages after the first are asked for one at a time:
 * `more()` adds one only when the last one asked for has `settled` (arrived or failed).
 */
export function usePages(resetKey: string) {
  const [state, setState] = useState({ key: resetKey, pages: 1, settled: 1 });
  // A new filter (tab, type) starts again from one page.
  const current = state.key === resetKey ? state : { key: resetKey, pages: 1, settled: 1 };
  if (current !== state) setState(current);
  const more = useCallback(
    () => setState((st) => (st.settled >= st.pages ? { ...st, pages: st.pages + 1 } : st)),
    [],
  );
  const settle = useCallback(
    (page: number) => setState((st) => (page > st.settled ? { ...st, settled: page } : st)),
    [],
  );
  const rest = Array.from({ length: current.pages - 1 }, (_, i) => i + 2);
  /** `rest`: the page numbers after the first, which the list renders as their own pieces. */
  return { pages: current.pages, rest, loading: current.settled < current.pages, more, settle };
}

/**
 * The end of an infinite list (SPEC §9: within 50 px of it the next page loads). It is also a
 * button, so keyboard and screen-reader users, and browsers that never scroll it into view, can
 * ask for the next page themselves.
 */
export function LoadMore({
  hasMore,
  loading,
  error,
  onMore,
}: {
  hasMore: boolean;
  loading: boolean;
  /** Translated failure of the last page: automatic loading stops until the user asks again. */
  error?: string | null;
  onMore: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el || !hasMore || loading || error || typeof IntersectionObserver === 'undefined') return;
    // A fresh observer reports at once, so a short page that leaves the end in view loads the next.
    const observer = new IntersectionObserver(
      (entries) => entries.some((e) => e.isIntersecting) && onMore(),
      {
        rootMargin: `0px 0px ${INFINITE_SCROLL_PX}px 0px`,
      },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasMore, loading, error, onMore]);

  return (
    <div ref={ref} className={s.loadMore}>
      {hasMore ? (
        <>
          {error && (
            <span className={s.error} role="alert">
              {error}
            </span>
          )}
          <Button variant="ghost" loading={loading} onClick={onMore}>
            {error ? t('common.retry') : t('list.loadMore')}
          </Button>
        </>
      ) : (
        <span className={s.loadMoreEnd}>{t('list.end')}</span>
      )}
    </div>
  );
}
