import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { releaseGone } from '../api/client';
import { type Failure, FailureBoundary } from '../ui/FailureBoundary';
import { PageHeader } from '../ui/PageHeader';
import { EmptyState, ErrorState } from '../ui/States';

/*
 * A screen that throws would otherwise take every component with it and leave a blank page. This
 * keeps the shell (banner, navigation), says what happened — the connection when the screen could
 * not be fetched (offline before the service worker holds the app, a connection dropped
 * mid-navigation), else that the screen failed — and offers a way back and Retry: `onRetry` drops
 * a failed load so the screen is fetched afresh. Another screen starts clear: the router keeps
 * the boundary, which forgets its failure when the path changes.
 */
export function ScreenBoundary({ onRetry, children }: { onRetry: () => void; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <FailureBoundary
      onRetry={onRetry}
      resetOn={pathname}
      failed={(why, retry) => <ScreenFailed why={why} onRetry={retry} />}
    >
      {children}
    </FailureBoundary>
  );
}

/** sessionStorage: the script of a release this tab reloaded away from (one reload per release). */
const RELOADED = 'bourse.reloadedFrom';

/**
 * A screen that could not be fetched because a deploy removed this release's files (its own script
 * answers 404): load the new release, once per release, instead of failing. Answers whether it does.
 */
function useNewRelease(why: Failure): boolean {
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (why !== 'fetch') return;
    let live = true;
    void releaseGone().then((gone) => {
      const script = document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? '';
      if (!gone || !live || sessionStorage.getItem(RELOADED) === script) return;
      sessionStorage.setItem(RELOADED, script);
      setLoading(true);
      window.location.reload();
    });
    return () => {
      live = false;
    };
  }, [why]);
  return loading;
}

function ScreenFailed({ why, onRetry }: { why: Failure; onRetry: () => void }) {
  const { t } = useTranslation();
  const newRelease = useNewRelease(why);
  return (
    <>
      <PageHeader title={t('core.screen.title')} />
      {newRelease ? (
        <div role="status">
          <EmptyState title={t('core.update.loading')} />
        </div>
      ) : (
        <ErrorState
          message={t(why === 'fetch' ? 'core.screen.failed' : 'core.screen.broken')}
          onRetry={onRetry}
        />
      )}
    </>
  );
}
