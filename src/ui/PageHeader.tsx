import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { PATHS } from '../paths';
import { IconButton } from './Button';
import { IconBack } from './icons';
import { useScreenHeading } from './screenHeading';
import s from './ui.module.css';

/**
 * Sticky title bar with a back button (history, or `back` when there is none) and actions. The
 * title is centred on the screen whatever sits on either side: both sides take the width of the
 * wider one (the grid's outer columns are equal), and a long title wraps rather than being cut.
 * It is the screen's heading: the document's title, and the focus after a navigation.
 */
export function PageHeader({
  title,
  back = PATHS.home,
  actions,
  noBack,
}: {
  title: ReactNode;
  back?: string;
  actions?: ReactNode;
  noBack?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const bar = useRef<HTMLElement>(null);
  useScreenHeading(heading);
  useEqualSides(bar);
  return (
    <header ref={bar} className={s.header}>
      <div className={s.headerStart}>
        {!noBack && (
          <IconButton
            label={t('common.back')}
            onClick={() => (window.history.state?.idx > 0 ? navigate(-1) : navigate(back, { replace: true }))}
          >
            <IconBack />
          </IconButton>
        )}
      </div>
      <h1 ref={heading} className={s.headerTitle} tabIndex={-1}>
        {title}
      </h1>
      <div className={s.headerActions}>{actions}</div>
    </header>
  );
}

/** A text link among a header's actions (a screen's orders or records, the positions of a list). */
export function HeaderLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className={s.headerLink}>
      {label}
    </Link>
  );
}

/**
 * Both sides of the bar as wide as the wider one (`--header-side`), measured before paint and again
 * when either changes (a language, a link that appears, the text size): the title between them is
 * then centred. A side takes at most 30 % of the bar (large text, a long link) — its words wrap — but
 * not less than its longest word (a link is not broken inside a word) unless that leaves the title
 * less than a quarter of the bar.
 */
function useEqualSides(bar: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const el = bar.current;
    const start = el?.firstElementChild as HTMLElement | null | undefined;
    const end = el?.lastElementChild as HTMLElement | null | undefined;
    if (!el || !start || !end) return;
    const measure = () => {
      // Each side's own width: with the property unset the sides are as wide as their content.
      el.style.removeProperty('--header-side');
      const natural = Math.ceil(Math.max(start.offsetWidth, end.offsetWidth));
      // As narrow as they can be, each side is its longest word wide (its min-content width).
      el.style.setProperty('--header-side', 'min-content');
      const word = Math.ceil(Math.max(start.offsetWidth, end.offsetWidth));
      // Yet both sides together leave the title a quarter of the bar: past that a word does break
      // (a header wider than a 320 px phone scrolled the whole page sideways).
      const wanted = Math.max(word, Math.min(natural, Math.floor(el.clientWidth * 0.3)));
      const side = Math.max(44, Math.min(wanted, Math.floor(el.clientWidth * 0.375)));
      el.style.setProperty('--header-side', `${side}px`);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(start);
    observer.observe(end);
    // A side held at its measured width does not resize when an action appears in it (Watchlist's
    // Edit once a favourite loads): its content changes are watched too.
    const content = new MutationObserver(measure);
    for (const side of [start, end])
      content.observe(side, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      content.disconnect();
    };
  }, [bar]);
}
