import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog, IconLogout, PageHeader, ui } from '../../ui';
import s from './settings.module.css';
import { useSettings } from './useSettings';

export default function SettingsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = useSettings();

  return (
    <main>
      <PageHeader title={t('settings.title')} />
      <div className={`${ui.card} ${s.list}`}>
        <button type="button" className={`${s.row} ${s.danger}`} onClick={() => settings.setConfirming(true)}>
          <IconLogout />
          <span className={s.rowLabel}>{t('settings.logout')}</span>
        </button>
      </div>
      <ConfirmDialog
        open={settings.confirming}
        title={t('settings.logoutConfirmTitle')}
        message={t('settings.logoutConfirm')}
        confirmLabel={t('settings.logout')}
        danger
        busy={settings.busy}
        onCancel={() => settings.setConfirming(false)}
        onConfirm={async () => {
          await settings.logout();
          settings.setConfirming(false);
          navigate('/login', { replace: true });
        }}
      />
    </main>
  );
}
