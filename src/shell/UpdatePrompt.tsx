import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useUi } from '../store/ui';
import s from './core.module.css';
import { useFormDirty } from './formActivity';
import { checkForUpdate, useUpdate } from './update';

/**
 * "New version available — Reload": waits while a dialog is open, a form holds typed input or a
 * money action is on screen (the order ticket, a recharge: a reload would lose what is being done,
 * and the prompt would sit over its button). Every route change looks for a new version.
 * `raised` lifts it above the bottom navigation.
 */
export function UpdatePrompt({ raised = false }: { raised?: boolean }) {
  const { t } = useTranslation();
  const { available, apply } = useUpdate();
  const dialogs = useUi((u) => u.dialogs);
  const money = useUi((u) => u.moneyActions);
  const dirty = useFormDirty();
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new route (pathname) checks
  useEffect(() => checkForUpdate(), [pathname]);
  if (!available || dialogs > 0 || dirty || money > 0) return null;
  return (
    <div className={`${s.update} ${raised ? s.raised : ''}`} role="status">
      <span>{t('core.update.available')}</span>
      <button type="button" className={s.updateButton} onClick={apply}>
        {t('core.update.reload')}
      </button>
    </div>
  );
}
