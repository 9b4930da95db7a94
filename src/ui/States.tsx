import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ERR } from '../shared/call';
import { Button } from './Button';
import { IconAlert, IconEmpty, IconOffline } from './icons';
import s from './ui.module.css';

/** A placeholder of the given size (computed, hence inline); `className` places it. */
export function Skeleton({
  width = '100%',
  height = 16,
  className,
}: {
  width?: number | string;
  height?: number | string;
  className?: string;
}) {
  return (
    <span
      className={className ? `${s.skeleton} ${className}` : s.skeleton}
      style={{ width, height }}
      aria-hidden="true"
    />
  );
}

/**
 * `rows` placeholder lines while a list loads; announced once as loading. `className` is put beside
 * the kit's padded column (a list inside a card sets its own padding and gap).
 */
export function SkeletonList({
  rows = 5,
  height = 56,
  className,
}: {
  rows?: number;
  height?: number;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={className ? `${s.skeletonList} ${className}` : s.skeletonList}
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

/**
 * What the device never kept while the server cannot answer (`errors.notLoaded`): one calm line in
 * the place of the part, not an alarm and not a placeholder that never ends. No retry of its own:
 * the connection banner above has "Retry now", and the part loads by itself when the server answers.
 */
function NotLoaded() {
  const { t } = useTranslation();
  return (
    <p className={s.notLoaded} data-not-loaded="">
      <IconOffline size={18} />
      {t(ERR.notLoaded)}
    </p>
  );
}

/** A load that failed: `error` is its message key; what was never loaded while unreachable is `NotLoaded`. */
export function LoadError({ error, onRetry }: { error: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return error === ERR.notLoaded ? <NotLoaded /> : <ErrorState message={t(error)} onRetry={onRetry} />;
}

/**
 * A screen's own words for a failed load (`key`), except for what was never loaded while the server
 * cannot be reached, which says so in the same words everywhere.
 */
export function loadFailed(error: string | null, key: string): string | null {
  return error && (error === ERR.notLoaded ? error : key);
}

/**
 * The ladder of one thing a screen or part waits for (a quote, an article, a record, an order
 * book), written once: until it arrives, the error (with retry) or `loading`, a placeholder of its
 * shape; then `children(data)`. `error` is a message key; what the device already holds wins over
 * an error (a failed refresh keeps it on screen). `null` counts as not arrived yet (an answer that
 * belongs to another key).
 */
export function ObjectStates<T>({
  data,
  error,
  onRetry,
  loading,
  children,
}: {
  data: T | null | undefined;
  error: string | null | undefined;
  onRetry?: () => void;
  loading: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (data === undefined || data === null)
    return error ? <LoadError error={error} onRetry={onRetry} /> : loading;
  return children(data);
}

/**
 * The ladder every list repeats, written once: until the rows arrive, the error (with retry) or
 * skeleton lines (`skeleton`), or `loading` where the placeholder has another shape; no rows,
 * `empty`; otherwise `children(rows)`. `error` is a message key; rows the device already holds win
 * over an error (a failed refresh keeps the list on screen).
 */
export function ListStates<T>({
  rows,
  error,
  onRetry,
  skeleton,
  loading,
  empty,
  children,
}: {
  rows: readonly T[] | undefined;
  error: string | null | undefined;
  onRetry?: () => void;
  skeleton?: { rows?: number; height?: number; className?: string };
  loading?: ReactNode;
  empty: ReactNode;
  children: (rows: readonly T[]) => ReactNode;
}) {
  return (
    <ObjectStates
      data={rows}
      error={error}
      onRetry={onRetry}
      loading={loading ?? <SkeletonList {...skeleton} />}
    >
      {(shown) => (shown.length === 0 ? empty : children(shown))}
    </ObjectStates>
  );
}
