import { useEffect, useRef } from 'react';
import { Button } from './Button';
import s from './ui.module.css';

/** SPEC §9: the next page loads when the end of the list comes within 50 px. */
const THRESHOLD_PX = 50;

/**
 * The end of an infinite list: loads the next page as it scrolls into view, and is also a real
 * button (keyboard, screen readers, or a failed page to retry). Says when there is no more.
 */
export function LoadMore({
  hasMore,
  loading,
  error,
  onMore,
  label,
  endLabel,
}: {
  hasMore: boolean;
  loading: boolean;
  /** Translated failure of the last page, if any; automatic loading stops until the user retries. */
  error?: string | null;
  onMore: () => void;
  label: string;
  endLabel: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const onMoreRef = useRef(onMore);
  onMoreRef.current = onMore;
  const auto = hasMore && !loading && !error;

  useEffect(() => {
    const el = ref.current;
    if (!el || !auto || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) onMoreRef.current();
      },
      { rootMargin: `0px 0px ${THRESHOLD_PX}px 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [auto]);

  return (
    <div ref={ref} className={s.loadMore}>
      {hasMore ? (
        <>
          {error && (
            <span className={s.error} role="alert">
              {error}
            </span>
          )}
          <Button variant="ghost" onClick={onMore} loading={loading}>
            {label}
          </Button>
        </>
      ) : (
        <span className={s.loadMoreEnd}>{endLabel}</span>
      )}
    </div>
  );
}
