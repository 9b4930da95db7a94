import { type ComponentType, lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { loadMessages } from './i18n/index';
import { type AppRoute, loadScreen, ROUTES } from './routes';
import { AppShell } from './shell/AppShell';
import { useLock } from './shell/lock';
import { ScreenBoundary } from './shell/ScreenBoundary';
import { loadLockScreen } from './shell/signedInParts';
import { useSession } from './store/session';
import { retryableLazy } from './ui/FailureBoundary';

const NOT_FOUND: AppRoute = {
  path: '*',
  messages: [],
  screen: 'NotFound',
};

/*
 * Each route loads its screen lazily (React.lazy), with the message areas it needs, and renders it
 * inside the shell. The declarative router, not the data router (createBrowserRouter): no route
 * has a loader or an action, and the data router's code was a fifth of the first screen's
 * JavaScript. Navigations run as React transitions, so the screen being left stays until the next
 * one has arrived (the first screen: the static shell of index.html stays until then). A load that
 * failed is forgotten by the screen's Retry (ScreenBoundary) and fetched afresh.
 */
const routes = [...ROUTES, NOT_FOUND].map((route) => {
  const screen = retryableLazy(async (): Promise<{ default: ComponentType }> => {
    const [loaded] = await Promise.all([loadScreen(route), loadMessages(route.messages)]);
    return loaded;
  });
  return (
    <Route
      key={route.path}
      path={route.path}
      element={
        <Suspense fallback={null}>
          <AppShell route={route}>
            <ScreenBoundary onRetry={screen.retry}>
              <screen.Component />
            </ScreenBoundary>
          </AppShell>
        </Suspense>
      }
    />
  );
});

/** A chunk of its own: a start behind the lock has it before it renders (src/main.tsx). */
const LockScreen = lazy(() => loadLockScreen().then((m) => ({ default: m.LockScreen })));

/**
 * While the app lock holds (src/shell/lock.ts) the lock screen replaces every route: no screen, no
 * dialog and no poll of private data exists until it opens.
 */
export function App() {
  const locked = useLock((st) => st.locked);
  const signedIn = useSession((st) => st.token !== null);
  return (
    <BrowserRouter>
      {locked && signedIn ? (
        <Suspense fallback={null}>
          <LockScreen />
        </Suspense>
      ) : (
        <Routes>{routes}</Routes>
      )}
    </BrowserRouter>
  );
}
