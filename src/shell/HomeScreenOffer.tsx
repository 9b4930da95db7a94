import { useTranslation } from 'react-i18next';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { IconAddSquare, IconDevice, IconShare } from '../ui/icons';
import s from './core.module.css';
import { dismissInstall, install, openIosGuide, useHomeScreen, useInstallOffer } from './homeScreen';

/**
 * "Install app" where the browser can install it, after a sign-in on this page (homeScreen.ts):
 * in the page's flow under the banner, so it covers nothing; taken or dismissed, never again.
 */
export function InstallOffer() {
  const { t } = useTranslation();
  if (!useInstallOffer()) return null;
  return (
    <aside className={s.install} aria-label={t('core.install.title')}>
      <IconDevice size={28} />
      <div className={s.installText}>
        <strong>{t('core.install.title')}</strong>
        <span>{t('core.install.message')}</span>
      </div>
      <div className={s.installActions}>
        <Button variant="ghost" onClick={dismissInstall}>
          {t('core.install.notNow')}
        </Button>
        <Button onClick={() => void install()}>{t('core.install.install')}</Button>
      </div>
    </aside>
  );
}

/** iOS Safari has no install prompt: how to add the app to the Home Screen, in three steps. */
export function IosGuide() {
  const { t } = useTranslation();
  const open = useHomeScreen((h) => h.guide);
  return (
    <Dialog open={open} onClose={() => openIosGuide(false)} title={t('core.install.ios.title')} sheet>
      <ol className={s.guide}>
        <li>
          <span className={s.guideIcon}>
            <IconShare size={26} />
          </span>
          <span>{t('core.install.ios.share')}</span>
        </li>
        <li>
          <span className={s.guideIcon}>
            <IconAddSquare size={26} />
          </span>
          <span>{t('core.install.ios.add')}</span>
        </li>
        <li>
          <span className={s.guideIcon} aria-hidden="true">
            <strong>{t('core.install.ios.addButton')}</strong>
          </span>
          <span>{t('core.install.ios.confirm')}</span>
        </li>
      </ol>
      <p className={s.guideNote}>{t('core.install.ios.why')}</p>
      <Button block onClick={() => openIosGuide(false)}>
        {t('core.install.ios.done')}
      </Button>
    </Dialog>
  );
}
