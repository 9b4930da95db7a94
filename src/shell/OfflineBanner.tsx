import { useTranslation } from 'react-i18next';
import { useOnline } from '../api/useOnline';
import { IconOffline } from '../ui/icons';
import s from './core.module.css';

/** Shown while offline: what the screens show is the last known data, and money cannot move. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <div className={s.banner} role="status">
      <IconOffline size={18} />
      <span>{t('core.offline.banner')}</span>
    </div>
  );
}
