import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import s from './core.module.css';
import { isStandalone } from './homeScreen';

const DISMISSED = 'bourse.desktopWarning';

/** A wide screen with a mouse and not installed (home-screen apps never see it): a desktop browser. */
function isDesktop(): boolean {
  if (typeof window === 'undefined' || !window.matchMedia) return false;
  return !isStandalone() && window.matchMedia('(min-width: 768px) and (pointer: fine)').matches;
}

/** SPEC §1: desktop users are asked to open the page on a mobile phone (they may carry on). */
export function DesktopWarning() {
  const { t } = useTranslation();
  const [show, setShow] = useState(() => isDesktop() && sessionStorage.getItem(DISMISSED) !== '1');
  if (!show) return null;
  return (
    <aside className={s.desktop} aria-label={t('core.desktop.title')}>
      <strong>{t('core.desktop.title')}</strong>
      <span>{t('core.desktop.message')}</span>
      <div className={s.desktopActions}>
        <button
          type="button"
          className={s.updateButton}
          onClick={() => {
            sessionStorage.setItem(DISMISSED, '1');
            setShow(false);
          }}
        >
          {t('core.desktop.dismiss')}
        </button>
      </div>
    </aside>
  );
}
