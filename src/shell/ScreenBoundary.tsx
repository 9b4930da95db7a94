import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type Failure, FailureBoundary } from '../ui/FailureBoundary';
import { PageHeader } from '../ui/PageHeader';
import { ErrorState } from '../ui/States';

/*
 * A screen that throws would otherwise take every component with it and leave a blank page. This
 * keeps the shell (banner, navigation), says what happened — the connection when the screen could
 * not be fetched (offline before the service worker holds the app, a connection dropped
 * mid-navigation), else that the screen failed — and offers a way back and Retry: `onRetry` drops
 * a failed load so the screen is fetched afresh. Each route has its own boundary, so another
 * screen starts clear.
 */
export function ScreenBoundary({ onRetry, children }: { onRetry: () => void; children: ReactNode }) {
  return (
    <FailureBoundary onRetry={onRetry} failed={(why, retry) => <ScreenFailed why={why} onRetry={retry} />}>
      {children}
    </FailureBoundary>
  );
}

function ScreenFailed({ why, onRetry }: { why: Failure; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('core.screen.title')} />
      <ErrorState
        message={t(why === 'fetch' ? 'core.screen.failed' : 'core.screen.broken')}
        onRetry={onRetry}
      />
    </>
  );
}
