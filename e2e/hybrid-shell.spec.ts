import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from './fixtures';
import { fundedUserViaApi, login, newPhone, reviewBuy } from './support';

/*
 * SPEC §1's hybrid app shell: the same build served from the shell's own origin (here a second
 * port, the one its worker's server lists in CORS_ORIGINS: fixtures.ts), which names the API at
 * run time (`window.BOURSE_API_BASE`, set before the app's scripts as a shell's document-start
 * script would). Sign in, a buy through its review and logout work across origins, the service
 * worker stays off, and a page of an origin not on the list can call nothing.
 */
const DIST = path.resolve(import.meta.dirname, '../dist');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webmanifest': 'application/manifest+json',
};

/** A shell's file server on `port` (0: any): dist/ as it is, the page with the API's address set first. */
function shell(port: number, api: string): Promise<http.Server> {
  const page = fs
    .readFileSync(path.join(DIST, 'index.html'), 'utf8')
    .replace('<head>', `<head><script>window.BOURSE_API_BASE = '${api}/api';</script>`);
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    const file = path.join(DIST, path.normalize(url));
    if (
      file.startsWith(DIST) &&
      fs.statSync(file, { throwIfNoEntry: false })?.isFile() &&
      url !== '/index.html'
    ) {
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(200, { 'content-type': TYPES['.html']! });
    res.end(page);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

// That no service worker registers from a shell's origin means something only where one may.
test.use({ serviceWorkers: 'allow' });

test('a hybrid shell serves the app from its own origin: sign in, buy, log out; other origins are refused', async ({
  browser,
  request,
  server,
}) => {
  const apiOrigin = server.url;
  // The listed origin's port, and one on no list.
  const shells = [
    await shell(Number(new URL(server.shellOrigin).port), apiOrigin),
    await shell(0, apiOrigin),
  ];
  try {
    const origin = (s: http.Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
    const phone = newPhone();
    await fundedUserViaApi(request, phone, 'secret123', 100_000);
    const context = await browser.newContext({
      baseURL: origin(shells[0]!),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const api = { requests: 0, failed: [] as string[], abandoned: [] as string[] };
    page.on('requestfinished', (r) => {
      if (r.url().startsWith(`${apiOrigin}/api/`)) api.requests += 1;
    });
    // A request the page itself gave up (a poll in flight when the page navigates, or one the app
    // cancels) is ERR_ABORTED: no answer was refused. On a loaded machine polls are more often in
    // flight at a navigation, and counting those failed this journey (1, not 0).
    page.on('requestfailed', (r) => {
      const error = r.failure()?.errorText ?? '';
      if (!r.url().startsWith(`${apiOrigin}/api/`)) return;
      (error === 'net::ERR_ABORTED' ? api.abandoned : api.failed).push(`${r.method()} ${r.url()}: ${error}`);
    });
    const started = Date.now();

    await login(page, phone, 'secret123');
    await expect(page.getByText('₹1,00,000.00').first()).toBeVisible();
    // No service worker from another origin than the API's.
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) ?? null),
    ).toBeNull();

    const { confirm } = await reviewBuy(page, 'RELIANCE', 1);
    await confirm.getByRole('button', { name: 'Confirm buy' }).click();
    await page.getByRole('dialog', { name: 'Order filled' }).getByRole('button', { name: 'Done' }).click();
    await page.goto('/trade');
    await expect(page.getByRole('link', { name: /^Reliance Industries RELIANCE 1 / })).toBeVisible();

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) ?? null),
    ).toBeNull();
    expect(api.failed).toEqual([]);
    console.log(
      `hybrid shell: sign in → buy → log out in ${((Date.now() - started) / 1000).toFixed(1)} s, ${api.requests} API requests across origins, ${api.failed.length} failed, ${api.abandoned.length} given up by the page${api.abandoned.length ? ` (${api.abandoned.join('; ')})` : ''}`,
    );

    // An origin not on the list: its page can neither read an answer nor send the session header.
    const other = await context.newPage();
    await other.goto(`${origin(shells[1]!)}/login`);
    const tried = await other.evaluate(async (base) => {
      const attempt = (init?: RequestInit) =>
        fetch(`${base}/api/v2/config`, init).then(
          (r) => `answered ${r.status}`,
          () => 'refused',
        );
      return { plain: await attempt(), withToken: await attempt({ headers: { token: 'x' } }) };
    }, apiOrigin);
    expect(tried).toEqual({ plain: 'refused', withToken: 'refused' });
    const preflight = await request.fetch('/api/v2/config', {
      method: 'OPTIONS',
      headers: {
        origin: origin(shells[1]!),
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'token',
      },
    });
    expect(preflight.status()).toBe(403);
    await context.close();
  } finally {
    for (const s of shells) await new Promise((r) => s.close(r));
  }
});
