import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type Toast, useUi } from '../store/ui';
import s from './ui.module.css';

/**
 * How long a toast stays: long enough to read it (about 200 words a minute, at least 2.5 s, an
 * error 4 s), never more than 10 s. A withdrawal's "requested: our team checks it before it is
 * sent" is fifteen words; gone after a fixed 2.5 s it was not read.
 */
export function readingMs(text: string, tone: Toast['tone']): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.min(10_000, Math.max(tone === 'error' ? 4000 : 2500, 1000 + words * 300));
}

function ToastItem({ toast }: { toast: Toast }) {
  const { t } = useTranslation();
  const dismiss = useUi((u) => u.dismiss);
  const text = t(toast.text, { defaultValue: t('errors.generic'), ...toast.params });
  const detail = toast.detail ? t(toast.detail, toast.params) : '';
  const ms = readingMs(`${text} ${detail}`, toast.tone);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), ms);
    return () => clearTimeout(timer);
  }, [dismiss, toast.id, ms]);
  return (
    <div className={s.toast} data-tone={toast.tone}>
      {text}
      {detail && <span className={s.toastDetail}>{detail}</span>}
    </div>
  );
}

/** Announced to screen readers through a polite live region. */
export function Toasts() {
  const toasts = useUi((u) => u.toasts);
  return (
    <div className={s.toasts} aria-live="polite" role="status">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
