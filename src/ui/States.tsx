import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { IconAlert, IconEmpty } from './icons';
import s from './ui.module.css';

export function Skeleton({
  width = '100%',
  height = 16,
  style,
}: {
  width?: number | string;
  height?: number | string;
  style?: CSSProperties;
}) {
  return <span className={s.skeleton} style={{ width, height, ...style }} aria-hidden="true" />;
}

/** `rows` placeholder lines while a list loads; announced once as loading. */
export function SkeletonList({ rows = 5, height = 56 }: { rows?: number; height?: number }) {
  const { t } = useTranslation();
  return (
    <div
      style={{ display: 'flex', flexDirection: 'column', gap: 10, padding: 16 }}
      role="status"
      aria-label={t('common.loading')}
    >
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} height={height} />
      ))}
    </div>
  );
}

export function EmptyState({
  title,
  children,
  icon,
}: {
  title: string;
  children?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className={s.state}>
      <div className={s.stateIcon}>{icon ?? <IconEmpty size={28} />}</div>
      <p className={s.stateTitle}>{title}</p>
      {children}
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={s.state} role="alert">
      <div className={s.stateIcon}>
        <IconAlert size={28} />
      </div>
      <p className={s.stateTitle}>{message}</p>
      {onRetry && (
        <Button variant="secondary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}
