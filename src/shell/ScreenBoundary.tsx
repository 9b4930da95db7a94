import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../ui/PageHeader';
import { ErrorState } from '../ui/States';

/*
 * A screen whose code or words cannot be fetched (offline before the service worker holds the app,
 * a connection dropped mid-navigation) would otherwise throw past every component and leave a
 * blank page. This keeps the shell (banner, navigation), says what happened and offers a way back
 * and a retry: `onRetry` drops the failed load so the screen is fetched afresh. Each route has its
 * own boundary, so another screen starts clear.
 */
export class ScreenBoundary extends Component<
  { onRetry: () => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ failed: false });
  };

  override render() {
    return this.state.failed ? <ScreenFailed onRetry={this.retry} /> : this.props.children;
  }
}

function ScreenFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('core.screen.title')} />
      <ErrorState message={t('core.screen.failed')} onRetry={onRetry} />
    </>
  );
}
