import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { type AppRoute, ROUTES } from './routes';
import { AppShell } from './shell/AppShell';

const NOT_FOUND: AppRoute = { path: '*', load: () => import('./screens/NotFound/NotFoundScreen') };

/** Each route loads its screen lazily and renders it inside the shell. */
const router = createBrowserRouter(
  [...ROUTES, NOT_FOUND].map((route) => ({
    path: route.path,
    lazy: async () => {
      const { default: Screen } = await route.load();
      return {
        element: (
          <AppShell route={route}>
            <Screen />
          </AppShell>
        ),
      };
    },
  })),
);

export function App() {
  return <RouterProvider router={router} />;
}
