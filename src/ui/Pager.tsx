import { Button } from './Button';
import s from './ui.module.css';

/** Page navigation for a paged list: previous, "page N of M", next. Pages count from 1. */
export function Pager({
  page,
  pages,
  onPage,
  labels,
  always = false,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** Translated: the whole control, previous, next, and "page N of M". */
  labels: { nav: string; previous: string; next: string; status: string };
  /** Shown on a single page too ("page 1 of 1": the list is whole); otherwise hidden then. */
  always?: boolean;
}) {
  if (pages <= 1 && !always) return null;
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
