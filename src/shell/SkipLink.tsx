import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The page's first focusable item (WCAG 2.4.1): "Skip to main content", shown only while it has the
 * keyboard's focus. It moves the focus past the screen's own header (its title bar, Home's icons)
 * to where the screen's content starts, so the next Tab is the content's first control.
 */
export function SkipLink() {
  const { t } = useTranslation();
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    const main = document.querySelector('main');
    if (!main) return;
    e.preventDefault();
    const header = main.querySelector(':scope > header');
    const target = (header?.nextElementSibling as HTMLElement | null) ?? main;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus();
  };
  return (
    // biome-ignore lint/a11y/useValidAnchor: a skip link is a link by convention (screen readers list it with the links); the click moves the focus past the screen's title bar, which no fragment can name
    <a href="#main" className="skip-link" onClick={skip}>
      {t('core.skipToContent')}
    </a>
  );
}
