import { type RefObject, useEffect } from 'react';
import { useLocation } from 'react-router-dom';

const APP = 'Bourse';

/** The path whose heading last took the focus (null until the app's first screen). */
let handledPath: string | null = null;

/**
 * A screen's heading (WCAG 2.4.2 and 4.1.3): the document's title is the screen's
 * ("Markets · Bourse", in the user's language), and after a navigation to another path the heading
 * takes the focus, so a screen reader says where the user now is and the keyboard starts at the
 * top of the new screen. The app's first screen keeps the browser's own start; a change of the
 * query alone (a tab, a search) moves nothing. `title` when the heading's text is not the title.
 */
export function useScreenHeading(ref: RefObject<HTMLElement | null>, title?: string): void {
  const { pathname } = useLocation();
  // Every render: the heading's text changes with the language and with data (a stock's name).
  useEffect(() => {
    const text = (title ?? ref.current?.textContent ?? '').replace(/\s+/g, ' ').trim();
    const next = text && text !== APP ? `${text} · ${APP}` : APP;
    if (document.title !== next) document.title = next;
  });
  useEffect(() => {
    if (handledPath === pathname) return;
    const first = handledPath === null;
    handledPath = pathname;
    // A dialog open on arrival keeps the focus it took, and so does a field the screen focused on
    // purpose (Markets' search, opened from Home's search button).
    if (first || document.querySelector('dialog[open]')) return;
    const active = document.activeElement;
    if (active && active !== document.body && ref.current?.closest('main')?.contains(active)) return;
    ref.current?.focus();
  }, [pathname, ref]);
}
