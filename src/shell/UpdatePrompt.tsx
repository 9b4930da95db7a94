import { useTranslation } from 'react-i18next';
import { useUi } from '../store/ui';
import s from './core.module.css';
import { useFormDirty } from './formActivity';
import { useUpdate } from './update';

/**
 * "New version available — Reload": waits while a dialog is open or a form holds typed input.
 * `raised` lifts it above the bottom navigation.
 */
export function UpdatePrompt({ raised = false }: { raised?: boolean }) {
  const { t } = useTranslation();
  const { available, apply } = useUpdate();
  const dialogs = useUi((u) => u.dialogs);
  const dirty = useFormDirty();
  if (!available || dialogs > 0 || dirty) return null;
  return (
    <div className={`${s.update} ${raised ? s.raised : ''}`} role="status">
      <span>{t('core.update.available')}</span>
      <button type="button" className={s.updateButton} onClick={apply}>
        {t('core.update.reload')}
      </button>
    </div>
  );
}
