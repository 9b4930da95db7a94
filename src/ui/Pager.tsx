import { Button } from './Button';
import s from './ui.module.css';

/**
 * Page navigation for a paged list: previous, "page N of M", next. Pages count from 1. Shown only
 * when there is more than one page (a whole list needs no page links).
 */
export function Pager({
  page,
  pages,
  onPage,
  labels,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** Translated: the whole control, previous, next, and "page N of M". */
  labels: { nav: string; previous: string; next: string; status: string };
}) {
  if (pages <= 1) return null;
  return (
    <nav className={s.pager} aria-label={labels.nav}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {labels.previous}
      </Button>
      <span className={s.pagerStatus} aria-live="polite">
        {labels.status}
      </span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {labels.next}
      </Button>
    </nav>
  );
}
