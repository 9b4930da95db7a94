import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../ui/PageHeader';
import { ErrorState } from '../ui/States';

/** A screen's code or words could not be fetched (src/App.tsx wraps its lazy load's failure). */
export class ScreenLoadError extends Error {
  constructor(cause: unknown) {
    super('screen could not be fetched', { cause });
    this.name = 'ScreenLoadError';
  }
}

/*
 * A screen that throws would otherwise take every component with it and leave a blank page. This
 * keeps the shell (banner, navigation), says what happened — the connection when the screen could
 * not be fetched (offline before the service worker holds the app, a connection dropped
 * mid-navigation), else that the screen failed — and offers a way back and Retry: `onRetry` drops
 * a failed load so the screen is fetched afresh. Each route has its own boundary, so another
 * screen starts clear.
 */
export class ScreenBoundary extends Component<
  { onRetry: () => void; children: ReactNode },
  { failed: 'fetch' | 'screen' | null }
> {
  override state: { failed: 'fetch' | 'screen' | null } = { failed: null };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error instanceof ScreenLoadError ? 'fetch' : 'screen' };
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ failed: null });
  };

  override render() {
    const { failed } = this.state;
    return failed ? <ScreenFailed why={failed} onRetry={this.retry} /> : this.props.children;
  }
}

function ScreenFailed({ why, onRetry }: { why: 'fetch' | 'screen'; onRetry: () => void }) {
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
