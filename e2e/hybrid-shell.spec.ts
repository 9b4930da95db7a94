import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { BASE_URL } from './playwright.config';
import { fundedUserViaApi, login, newPhone, reviewBuy } from './support';

/*
 * SPEC §1's hybrid app shell: the same build served from the shell's own origin (here a second
 * port, listed in the API server's CORS_ORIGINS by playwright.config.ts), which names the API at
 * run time (`window.BOURSE_API_BASE`, set before the app's scripts as a shell's document-start
 * script would). Sign in, a buy through its review and logout work across origins, the service
 * worker stays off, and a page of an origin not on the list can call nothing.
 */
const DIST = path.resolve(import.meta.dirname, '../dist');
const API_PORT = new URL(BASE_URL).port;
const SHELL_PORT = Number(API_PORT) + 10;
const OTHER_PORT = Number(API_PORT) + 11;
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

/** A shell's file server: dist/ as it is, the page with the API's address set first. */
function shell(port: number): Promise<http.Server> {
  const page = fs
    .readFileSync(path.join(DIST, 'index.html'), 'utf8')
    .replace('<head>', `<head><script>window.BOURSE_API_BASE = '${BASE_URL}/api';</script>`);
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

test('a hybrid shell serves the app from its own origin: sign in, buy, log out; other origins are refused', async ({
  browser,
  request,
}) => {
  const shells = [await shell(SHELL_PORT), await shell(OTHER_PORT)];
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
    const api = { requests: 0, failed: 0 };
    page.on('requestfinished', (r) => {
      if (r.url().startsWith(`${BASE_URL}/api/`)) api.requests += 1;
    });
    page.on('requestfailed', (r) => {
      if (r.url().startsWith(`${BASE_URL}/api/`)) api.failed += 1;
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
    expect(api.failed).toBe(0);
    console.log(
      `hybrid shell: sign in → buy → log out in ${((Date.now() - started) / 1000).toFixed(1)} s, ${api.requests} API requests across origins, ${api.failed} failed`,
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
    }, BASE_URL);
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
