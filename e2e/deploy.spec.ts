import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { E2E_PORT, expect, test } from './fixtures';
import { type ServerProcess, startBuiltServer } from './server';
import { login, registerViaApi, serviceWorkerReady } from './support';

/*
 * A new release reaches a running tab safely: two builds, one server restarted on the
 * same port and database under an open, signed-in tab. The tab finds the release on a route change
 * (not only every 30 minutes or on becoming visible), the prompt waits while a money screen is on
 * (the order ticket: no form, a tab panel) so it never covers its button nor loses the quantity,
 * and Reload brings the new release without signing out. A file the new release removed is a 404
 * (not the app page), HEAD answers like GET, and a tab without a service worker (a first visit, a
 * hybrid shell) whose next screen's file is gone loads the new release instead of failing.
 *
 * The second build is the first with every hashed file renamed, as a build of changed code names
 * them (references rewritten, the service worker's revisions changed): a second `vite build` would
 * cost a minute of CI for the same files under new names.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PORT = E2E_PORT + 40;

function secondBuild(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (f) => !/\.(br|gz)$/.test(f) });
  const assets = path.join(to, 'assets');
  const renamed = fs
    .readdirSync(assets)
    .map((f) => [f, f.replace(/(\.[a-z0-9]+)$/, '-r2$1')] as const)
    .sort((a, b) => b[0].length - a[0].length);
  for (const [old, next] of renamed) fs.renameSync(path.join(assets, old), path.join(assets, next));
  const texts = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return texts(p);
      return /\.(js|css|html|webmanifest|json)$/.test(e.name) ? [p] : [];
    });
  for (const file of texts(to)) {
    let text = fs.readFileSync(file, 'utf8');
    for (const [old, next] of renamed) text = text.split(old).join(next);
    if (path.basename(file) === 'sw.js') text = text.replace(/revision:"/g, 'revision:"r2');
    fs.writeFileSync(file, text);
  }
}

async function phone(browser: Browser, server: ServerProcess, serviceWorkers: 'allow' | 'block') {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers,
  });
  return context.newPage();
}

const scriptOf = (page: Page) =>
  page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? '');

/** An in-app navigation (the router's, not a page load), as a tapped link makes. */
const navigate = (page: Page, to: string) =>
  page.evaluate((p) => {
    history.pushState({}, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, to);

test('a deploy under a running tab: found on a route change, held on a money screen, reloaded into signed in; a removed file is a 404', async ({
  browser,
}) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-deploy-'));
  const first = path.join(dir, 'release-1');
  const second = path.join(dir, 'release-2');
  fs.cpSync(path.join(ROOT, 'dist'), first, { recursive: true });
  secondBuild(first, second);
  let server = await startBuiltServer({ port: PORT, dir, dist: first });
  try {
    const page = await phone(browser, server, 'allow');
    const user = await registerViaApi(page);
    await login(page, user.phone, user.password);
    await serviceWorkerReady(page);
    // A tab without a service worker on the first release too.
    const bare = await phone(browser, server, 'block');
    await login(bare, user.phone, user.password);
    const oldScript = await scriptOf(page);
    expect(await scriptOf(bare)).toBe(oldScript);

    const deployed = Date.now();
    await server.stop();
    // The same origin as the first release's, or the test means nothing: refuse a taken port.
    server = await startBuiltServer({ port: server.port, portTaken: 'refuse', dir, dist: second });

    // The server: the old release's script is a 404 (not the app page), HEAD answers like GET.
    const gone = await page.request.get(oldScript);
    expect(gone.status()).toBe(404);
    expect(gone.headers()['content-type']).not.toContain('text/html');
    const head = await page.request.head('/markets');
    expect(head.status()).toBe(200);
    expect(head.headers()['content-type']).toContain('text/html');

    // A route change looks for the new release (at most every 10 s): the prompt shows.
    const prompt = page.getByRole('status').filter({ hasText: 'New version available' });
    let at = 0;
    await expect
      .poll(
        async () => {
          at += 1;
          await navigate(page, at % 2 ? '/markets' : '/');
          return prompt.isVisible();
        },
        { timeout: 45_000, intervals: [1_000] },
      )
      .toBe(true);
    console.log(
      `deploy: new release offered ${((Date.now() - deployed) / 1000).toFixed(1)} s after the restart`,
    );

    // The order ticket is a money screen: no prompt while it is on, the quantity typed stays.
    await navigate(page, '/trading/RELIANCE');
    const quantity = page.getByRole('textbox', { name: 'Quantity' });
    await quantity.fill('7');
    const buy = page.getByRole('button', { name: 'Buy RELIANCE' });
    await expect(buy).toBeVisible();
    await expect(prompt).toHaveCount(0);
    const box = (await buy.boundingBox())!;
    const onTop = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? '',
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(onTop).toContain('Buy RELIANCE');
    await expect(quantity).toHaveValue('7');

    // Left, the prompt is back; Reload brings the new release, still signed in.
    await page.goBack();
    await expect(prompt).toBeVisible();
    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    await expect.poll(() => scriptOf(page)).not.toBe(oldScript);
    expect(await scriptOf(page)).toContain('-r2.js');
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();

    // The tab without a service worker: its next screen's file is gone; it loads the new release.
    await navigate(bare, '/news');
    await expect(bare.getByRole('heading', { name: 'News', level: 1 })).toBeVisible({ timeout: 20_000 });
    expect(await scriptOf(bare)).toContain('-r2.js');
    await expect(bare).toHaveURL(/\/news$/);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
