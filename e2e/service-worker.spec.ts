import { expect, test } from './fixtures';
import { goOffline, goOnline, loginFunded, serviceWorkerReady } from './support';

/**
 * The offline shell after a first install that the connection cut off: the service worker's
 * precache fetches fail (the phone lost its signal while the shell downloaded), the browser drops
 * the half-installed worker, and the open app registers it again once the phone is back online,
 * without waiting for the next launch: the worker installs the whole shell and controls the page.
 */
test.use({ serviceWorkers: 'allow' });

test('a first install cut off by the connection is made again once back online', async ({
  page,
  context,
}) => {
  // Only the service worker's own fetches fail: the page itself loads and signs in as usual.
  let cut = 0;
  await context.route('**/*', (route) => {
    if (!route.request().serviceWorker()) return route.continue();
    cut += 1;
    return route.abort('internetdisconnected');
  });
  await loginFunded(page);
  await expect(page.getByRole('heading', { name: 'Portfolio value' })).toBeVisible();
  // The install started, its fetches failed and the browser dropped the registration.
  await expect.poll(() => cut).toBeGreaterThan(0);
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) === undefined))
    .toBe(true);

  // The signal goes and comes back: the browser's 'online' is the app's moment to try again.
  await context.unroute('**/*');
  await goOffline(context);
  await goOnline(context);
  // Installed and activated, and after a reload it controls the page (serviceWorkerReady).
  await serviceWorkerReady(page);
});
