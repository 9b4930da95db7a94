import { useTranslation } from 'react-i18next';
import { formatDateTime, formatTime } from '../shared/format';
import s from './core.module.css';

/** "as of 14:32" today, with the date on another day. */
export function asOfText(at: number, now = Date.now(), locale?: string): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return sameDay ? formatTime(at, locale) : formatDateTime(at, locale);
}

/**
 * The as-of time of data from the device (DESIGN rule 7). With `stale` it is marked as last known;
 * without, it is a quiet time stamp. Renders nothing when the time is unknown.
 */
export function AsOf({
  at,
  stale = false,
  className,
}: {
  at: number | null | undefined;
  stale?: boolean;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  if (!at) return null;
  const time = asOfText(at, Date.now(), i18n.language === 'en' ? undefined : i18n.language);
  return (
    <span className={`${s.asOf} ${stale ? s.stale : ''} ${className ?? ''}`} data-stale={stale || undefined}>
      {stale && <span className={s.staleLabel}>{t('core.stale')}</span>}
      <time dateTime={new Date(at).toISOString()}>{t('core.asOf', { time })}</time>
    </span>
  );
}
