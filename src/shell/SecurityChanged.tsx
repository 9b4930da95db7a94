import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { call } from '../api/client';
import { PATHS } from '../paths';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { useDates } from '../ui/dates';
import { useChanges } from './securityChanges';
import s from './shell.module.css';

/**
 * "Your security changed": the sheet of the changes `useSecurityChangesLoad` read.
 */
export function SecurityChanged() {
  const { t } = useTranslation();
  const dates = useDates();
  const navigate = useNavigate();
  const changes = useChanges((st) => st.changes);
  const newest = changes[0];
  if (!newest) return null;
  const close = () => useChanges.setState({ changes: [] });
  return (
    <Dialog open onClose={close} title={t('core.securityChanged.title')}>
      <ul className={s.changes} aria-label={t('core.securityChanged.title')}>
        {changes.map((c) => (
          <li key={c.id} data-testid="security-change">
            <strong>{t(`core.securityChanged.events.${c.event}`)}</strong>
            <span className={s.changeWhere}>
              {t('core.securityChanged.when', {
                date: dates.dateTime(c.at),
                from: c.from,
                address: c.address,
              })}
            </span>
          </li>
        ))}
      </ul>
      <p className={s.identityText}>{t('core.securityChanged.notYou')}</p>
      <div className={s.identityActions}>
        <Button
          block
          onClick={() => {
            close();
            navigate(PATHS.security);
          }}
        >
          {t('core.securityChanged.review')}
        </Button>
        <Button
          block
          variant="ghost"
          onClick={() => {
            close();
            void call('securityChangesSeen', { up_to: newest.at });
          }}
        >
          {t('core.securityChanged.itWasMe')}
        </Button>
      </div>
    </Dialog>
  );
}
