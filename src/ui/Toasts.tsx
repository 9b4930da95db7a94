import { useTranslation } from 'react-i18next';
import { useUi } from '../store/ui';
import s from './ui.module.css';

/** Announced to screen readers through a polite live region. */
export function Toasts() {
  const { t } = useTranslation();
  const toasts = useUi((u) => u.toasts);
  return (
    <div className={s.toasts} aria-live="polite" role="status">
      {toasts.map((toast) => (
        <div key={toast.id} className={s.toast} data-tone={toast.tone}>
          {t(toast.text, { defaultValue: t('errors.generic'), ...toast.params })}
          {toast.detail && <span className={s.toastDetail}>{t(toast.detail, toast.params)}</span>}
        </div>
      ))}
    </div>
  );
}
