import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test, type WorkerServer } from './fixtures';
import { expectPriceNotLive, fundedUserViaApi, login, newPhone, serviceWorkerReady, snap } from './support';

/**
 * A reload with the server silent: a user signs in and looks at Home only; the server's
 * process then stops (SIGSTOP: connections open, nothing answered — the phone is still online, so
 * neither `setOffline` nor the browser's flag says anything), and every main screen is opened by a
 * full page load, as a tap on the home-screen icon does. Each shows at once what it can derive from
 * what Home fetched, marked with its as-of time; what the phone never fetched is a placeholder only
 * until the app finds the server silent, then the sentence "Not loaded yet — Bourse can't be reached".
 *
 * The server is this journey's own (`ownServer`, fixtures.ts): stopping one another journey used
 * would stop that journey too.
 */
const PASSWORD = 'secret123';
const NOT_LOADED = "Not loaded yet — Bourse can't be reached";

let server: WorkerServer;
let api: APIRequestContext;
let phone: string;

test.describe.configure({ mode: 'serial' });
test.use({ ownServer: 'offline-reload', serviceWorkers: 'allow' });

test.beforeAll(async ({ playwright, server: own }) => {
  server = own;
  api = await playwright.request.newContext({ baseURL: server.url });
  // Funded and holding a stock, bought from another device: figures worth deriving.
  phone = newPhone();
  const token = await fundedUserViaApi(api, phone, PASSWORD, 100000);
  const quote = (await (await api.get('/api/v2/quote?symbol=RELIANCE.NS')).json()).data;
  const buy = await api.post('/api/stock/success/deal/buy', {
    headers: { token, 'idempotency-key': `offline-${phone}` },
    data: { tag: 'RELIANCE.NS', count: 2, price: quote.price, mold: 'stock' },
  });
  expect((await buy.json()).msg).toBe('ok');
});

test.afterAll(async () => {
  await api?.dispose();
  // A failed step may have left it stopped.
  server?.resume();
});

const banner = (page: Page) => page.locator('[data-connection]');
/** Every placeholder the page still shows (skeletons, skeleton lists, the chart's). */
const placeholders = (page: Page) => page.locator('main [class*="skeleton"]');

/** Opens `url` by a full page load: the shell comes from the device, the server says nothing. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(banner(page)).toHaveAttribute('data-connection', 'unreachable', { timeout: 20_000 });
}

/** A part shown from the device: its figure, and "Last known" with its time. */
async function expectLastKnown(part: Locator, figure: string | RegExp): Promise<void> {
  await expect(part.getByText(figure).first()).toBeVisible();
  await expect(part.getByText('Last known', { exact: true }).first()).toBeVisible();
  // The time of the figures (a price's own time may be another day's: the date comes with it).
  await expect(part.getByText(/^as of (\d\d\/\d\d\/\d{4}, )?\d\d:\d\d(:\d\d)?$/).first()).toBeVisible();
}

/** Nothing left loading: what the phone never fetched says so, and no placeholder remains. */
async function expectSettled(page: Page, notLoaded: number): Promise<void> {
  await expect(page.locator('main').getByText(NOT_LOADED)).toHaveCount(notLoaded);
  await expect(placeholders(page)).toHaveCount(0);
}

test('every main screen after a reload with the server stopped: what Home fetched, marked, and "not loaded yet" for the rest', async ({
  page,
}) => {
  await login(page, phone, PASSWORD);
  await serviceWorkerReady(page);
  const assets = page.getByRole('region', { name: 'Your assets' });
  await expect(assets.getByText(/^₹[\d,]+\.\d\d$/).first()).toBeVisible();
  await expect(assets.getByText('Last known', { exact: true })).toHaveCount(0);
  // The worker keeps the account's answers on the device as they arrive.
  await expect.poll(() => kept(page)).toEqual(expect.arrayContaining(['userInfo:{}', 'portfolioSummary:{}']));

  server.pause();

  // Home: the account and the index cards, each marked.
  await open(page, '/');
  await expectLastKnown(assets, /^₹[\d,]+\.\d\d$/);
  const total = (await assets
    .getByText(/^₹[\d,]+\.\d\d$/)
    .first()
    .textContent())!;
  await expectLastKnown(page.getByRole('region', { name: 'Market indices' }), /^[\d,]+\.\d\d$/);
  await expectSettled(page, 0);
  await snap(page, 'offline-reload-home');

  // Account: the same total, the available balance, the holding's value, from Home's answers; its
  // market list was never fetched.
  await open(page, '/account');
  const hero = page.getByRole('region', { name: 'Your assets' });
  await expectLastKnown(hero, total);
  const lines = hero.getByTestId('hero-lines');
  await expect(lines.locator('[data-line="available"]')).toContainText(/₹[\d,]+\.\d\d/);
  await expect(lines.locator('[data-line="holdings"]')).toContainText(/₹[\d,]+\.\d\d/);
  await expect(lines.locator('[data-line="holdings"]')).not.toHaveAttribute('data-amount', '0.00');
  await expect(page.getByTestId('allocation')).toContainText('Stocks');
  await expectSettled(page, 1);
  await snap(page, 'offline-reload-account');

  // Trade: the portfolio's totals (one position); the holdings list was never fetched.
  await open(page, '/trade');
  const totals = page.getByTestId('portfolio-totals');
  await expectLastKnown(totals, /^₹[\d,]+\.\d\d$/);
  await expect(totals.getByText('1 position')).toBeVisible();
  await expectSettled(page, 1);
  await snap(page, 'offline-reload-trade');

  // Markets: the categories and the first one's index cards (taken from Home's list of all of them).
  await open(page, '/markets');
  await expect(page.getByRole('radio', { name: 'India · NSE' })).toBeChecked();
  await expectLastKnown(page.locator('main'), /^[\d,]+\.\d\d$/);
  await expectSettled(page, 1);
  await snap(page, 'offline-reload-markets');

  // Watchlists: the index cards; the favourites were never fetched.
  await open(page, '/watchlists');
  await expectLastKnown(page.locator('main'), /^[\d,]+\.\d\d$/);
  await expectSettled(page, 1);

  // An index from Home's cards: its last price, marked; its day's quote and chart were never fetched.
  await open(page, '/stock/v2/%5ENSEI/NIFTY%2050');
  const quote = page.getByRole('region', { name: 'Quote' });
  await expect(page.getByTestId('price')).toHaveText(/^[\d,]+\.\d\d$/);
  await expectPriceNotLive(quote);
  await expectSettled(page, 2);

  // A stock never opened: nothing to show but that it is not loaded.
  await open(page, '/stock/RELIANCE.NS/IN/Reliance%20Industries');
  await expect(page.getByTestId('price')).toHaveText('—');
  await expect(page.locator('main').getByText(NOT_LOADED).first()).toBeVisible();
  await expect(placeholders(page)).toHaveCount(0);
  await snap(page, 'offline-reload-stock');

  // Never fetched at all: Account changes, News.
  for (const url of ['/account/changes', '/news']) {
    await open(page, url);
    await expectSettled(page, 1);
  }
  await snap(page, 'offline-reload-news');

  // The server back: the screen fills in by itself, live.
  server.resume();
  await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
  await expect(page.locator('main').getByText(NOT_LOADED)).toHaveCount(0, { timeout: 20_000 });
});

/** The keys of the answers the worker kept on the device. */
function kept(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const req = indexedDB.open('bourse');
        req.onerror = () => resolve([]);
        req.onsuccess = () => {
          const db = req.result;
          if (![...db.objectStoreNames].includes('answers')) return resolve([]);
          const all = db.transaction('answers', 'readonly').objectStore('answers').getAllKeys();
          all.onsuccess = () => resolve(all.result.map(String));
          all.onerror = () => resolve([]);
        };
      }),
  );
}
