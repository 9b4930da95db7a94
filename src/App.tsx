import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { loadMessages } from './i18n/index';
import { type AppRoute, ROUTES } from './routes';
import { AppShell } from './shell/AppShell';
import { ScreenBoundary, ScreenLoadError } from './shell/ScreenBoundary';

const NOT_FOUND: AppRoute = {
  path: '*',
  messages: [],
  load: () => import('./screens/NotFound/NotFoundScreen'),
};

/*
 * Each route loads its screen lazily (React.lazy), with the message areas it needs, and renders it
 * inside the shell. The declarative router, not the data router (createBrowserRouter): no route
 * has a loader or an action, and the data router's code was a fifth of the first screen's
 * JavaScript. Navigations run as React transitions, so the screen being left stays until the next
 * one has arrived (the first screen: the static shell of index.html stays until then).
 */
const screens = new Map<AppRoute, LazyExoticComponent<ComponentType>>();

/** The route's screen, loaded once; a load that failed is forgotten by Retry (ScreenBoundary). */
function RouteScreen({ route }: { route: AppRoute }) {
  let Screen = screens.get(route);
  if (!Screen) {
    const { load, messages } = route;
    Screen = lazy(() =>
      Promise.all([load(), loadMessages(messages)]).then(
        ([screen]) => screen,
        (err: unknown) => {
          throw new ScreenLoadError(err);
        },
      ),
    );
    screens.set(route, Screen);
  }
  return <Screen />;
}

const routes = [...ROUTES, NOT_FOUND].map((route) => (
  <Route
    key={route.path}
    path={route.path}
    element={
      <Suspense fallback={null}>
        <AppShell route={route}>
          <ScreenBoundary onRetry={() => screens.delete(route)}>
            <RouteScreen route={route} />
          </ScreenBoundary>
        </AppShell>
      </Suspense>
    }
  />
));

export function App() {
  return (
    <BrowserRouter>
      <Routes>{routes}</Routes>
    </BrowserRouter>
  );
}
