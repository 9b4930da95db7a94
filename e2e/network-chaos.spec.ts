import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { type ChaosProxy, startChaosProxy } from './chaos';
import { test as base, expect } from './fixtures';
import { expectPriceNotLive, fundedUserViaApi, login, newPhone, serviceWorkerReady, snap } from './support';

/**
 * Network chaos: the browser talks to the real server through a loopback proxy that can
 * stop answering, lose an answer, or never deliver a request. Journeys: the server goes silent and
 * comes back (banner, marks, money paused, "while you were away", no burst on reconnect); a buy
 * whose answer is lost is confirmed exactly once; a buy that never arrived is submitted again once.
 * Times are printed, never asserted.
 */
const PASSWORD = 'secret123';
/** The outage after which the app says what happened meanwhile, here (the app's own: a minute). */
const AWAY_MS = 5_000;
const BUY = '/api/stock/success/deal/buy';
const TRADE_URL = '/stock/trading/RELIANCE.NS/IN/Reliance%20Industries';

/** The page reaches its worker's server through the proxy (on a port of the system's choosing). */
const test = base.extend<object, { chaos: ChaosProxy }>({
  chaos: [
    async ({ server }, use) => {
      const started = await startChaosProxy(server.url, 0);
      await use(started);
      await started.close();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ chaos }, use) => use(chaos.url),
});

let proxy: ChaosProxy;
let api: APIRequestContext;
let phone: string;
let token: string;

test.describe.configure({ mode: 'serial' });
// The silent server's journey reloads from the service worker's copy of the shell.
test.use({ serviceWorkers: 'allow' });

test.beforeAll(async ({ playwright, server, chaos }) => {
  proxy = chaos;
  // The test's own line to the server (another device, in effect): never through the proxy.
  api = await playwright.request.newContext({ baseURL: server.url });
  phone = newPhone();
  token = await fundedUserViaApi(api, phone, PASSWORD, 100000);
});

test.afterAll(async () => {
  await api?.dispose();
});

test.afterEach(() => {
  proxy.answer();
});

/** Orders of the journey's user in RELIANCE, from the server itself. */
async function relianceOrders(): Promise<Array<{ no: string; status: number }>> {
  const res = await api.get('/api/stock/success/order/list', { headers: { token }, params: { limit: 100 } });
  return ((await res.json()).data.rows as Array<{ tag: string; no: string; status: number }>).filter(
    (o) => o.tag === 'RELIANCE.NS',
  );
}

const banner = (page: Page) => page.locator('[data-connection]');

/** The worker has kept this answer on the device (so a screen opened while silent can show it). */
function deviceHasAnswer(page: Page, prefix: string): Promise<boolean> {
  return page.evaluate(
    (p) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('bourse');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (![...db.objectStoreNames].includes('answers')) return resolve(false);
          const req = db.transaction('answers', 'readonly').objectStore('answers').getAllKeys();
          req.onsuccess = () => resolve(req.result.some((k) => String(k).startsWith(p)));
          req.onerror = () => resolve(false);
        };
      }),
    prefix,
  );
}

/**
 * Opens `url` afresh while the server is silent: the app starts from the device (a new sync worker
 * that has yet to find out), shows the screen (`ready`), then says the server cannot be reached.
 * The two waits are separate so that a slow start on a loaded machine is not taken for a late
 * banner; if the banner does not come, what the browser sent meanwhile is printed.
 */
async function openWhileSilent(page: Page, url: string, ready: Locator): Promise<void> {
  const from = Date.now();
  await page.goto(url);
  await expect(ready).toBeVisible({ timeout: 30_000 });
  try {
    await expect(banner(page)).toHaveAttribute('data-connection', 'unreachable', { timeout: 20_000 });
  } catch (e) {
    const state = await banner(page)
      .getAttribute('data-connection', { timeout: 1_000 })
      .catch(() => 'none');
    console.log(`no unreachable banner on ${url} (banner: ${state}); requests since opening it:`);
    console.log(
      proxy.requests
        .filter((r) => r.at >= from)
        .map((r) => `${r.at - from} ${r.method} ${r.path}`)
        .join('\n'),
    );
    throw e;
  }
}

async function openTicket(page: Page): Promise<void> {
  await page.goto(TRADE_URL);
  await expect(page.getByTestId('trade-price')).toBeVisible();
  await page.getByRole('textbox', { name: 'Quantity' }).fill('1');
  await page.getByRole('button', { name: 'Buy RELIANCE' }).click();
  await expect(page.getByRole('dialog', { name: 'Buy RELIANCE?' })).toBeVisible();
}

test('server silent: banner, marks, money paused; back: banner gone, live, what changed meanwhile, no burst', async ({
  page,
}) => {
  // "While you were away" after AWAY_MS without the server, not the app's minute (src/api/base.ts).
  await page.addInitScript((ms) => {
    window.BOURSE_AWAY_AFTER_MS = ms;
  }, AWAY_MS);
  await login(page, phone, PASSWORD);
  await serviceWorkerReady(page);
  // Every screen of the journey once while the server answers (its code is then on the device).
  await page.goto(TRADE_URL);
  await expect(page.getByTestId('trade-price')).toBeVisible();
  await expect.poll(() => deviceHasAnswer(page, 'quote:{"symbol":"RELIANCE.NS"}')).toBe(true);
  await page.goto('/recharge');
  await page.goto('/account');
  const assets = page.getByRole('region', { name: 'Your assets' });
  await expect(assets.getByText('₹1,00,000.00').first()).toBeVisible();
  await expect(assets.getByText('Last known', { exact: true })).toHaveCount(0);

  proxy.silent();
  const silentAt = Date.now();
  await expect(banner(page)).toHaveAttribute('data-connection', 'unreachable', { timeout: 20_000 });
  const bannerAt = Date.now();
  await expect(banner(page)).toContainText("Can't reach Bourse");
  await expect(banner(page)).toContainText(/Data from \d\d:\d\d:\d\d\. Money actions are paused\./);
  await expect(page.getByRole('button', { name: 'Retry now' })).toBeVisible();
  await expect(assets.getByText('Last known', { exact: true })).toBeVisible();
  await snap(page, 'chaos-account-unreachable');

  // Meanwhile the user's other device buys, and the server fills it.
  const elsewhere = await api.post(BUY, {
    headers: { token, 'idempotency-key': `elsewhere-${phone}` },
    data: { tag: 'RELIANCE.NS', count: 2, price: 2412.37, mold: 'stock' },
  });
  expect((await elsewhere.json()).msg).toBe('ok');

  // Opened while the server is silent: the shell from the device, money paused with the reason.
  const amount = page.getByRole('textbox', { name: 'Recharge amount' });
  await openWhileSilent(page, '/recharge', amount);
  await amount.fill('5000');
  const submit = page.getByRole('button', { name: 'Submit recharge' });
  await expect(submit).toBeDisabled();
  await expect(page.getByText("Paused: the server can't be reached.", { exact: false })).toBeVisible();

  await openWhileSilent(page, TRADE_URL, page.getByTestId('trade-price'));
  const buy = page.getByRole('button', { name: 'Buy RELIANCE' });
  await expect(buy).toBeDisabled();
  await expect(page.getByText("Paused: the server can't be reached.", { exact: false })).toBeVisible();
  await expectPriceNotLive(page.getByRole('region', { name: 'Price' }));

  await openWhileSilent(page, '/account', assets.getByText('₹1,00,000.00').first());
  // "While you were away" needs more than AWAY_MS without the server (the steps above take longer).
  await expect.poll(() => Date.now() - silentAt).toBeGreaterThan(AWAY_MS);

  proxy.answer();
  const backAt = Date.now();
  page.on('console', (m) => console.log('page:', m.text()));
  try {
    await expect(banner(page)).toHaveCount(0, { timeout: 20_000 });
  } catch (e) {
    console.log(
      proxy.requests
        .filter((r) => r.at > silentAt)
        .map((r) => `${r.at - backAt} ${r.method} ${r.path}`)
        .join('\n'),
    );
    throw e;
  }
  const clearedAt = Date.now();
  await expect(assets.getByText('Last known', { exact: true })).toHaveCount(0);
  const liveAt = Date.now();

  const away = page.getByRole('dialog', { name: 'While you were away' });
  await expect(away).toBeVisible();
  await expect(away.getByText('Buy RELIANCE × 2')).toBeVisible();
  await expect(away.getByText('Success')).toBeVisible();
  await snap(page, 'chaos-away');
  await away.getByRole('button', { name: 'Got it' }).click();

  await page.waitForTimeout(Math.max(0, backAt + 5_000 - Date.now()));
  const burst = proxy.requests.filter(
    (r) => r.at >= backAt && r.at < backAt + 5_000 && r.path.startsWith('/api/'),
  );
  const perKey = new Map<string, number>();
  for (const r of burst) perKey.set(r.path, (perKey.get(r.path) ?? 0) + 1);
  console.log(
    `chaos: silent→banner ${bannerAt - silentAt} ms; back→banner gone ${clearedAt - backAt} ms; back→live ${liveAt - backAt} ms; ` +
      `API requests in the first 5 s after reconnect: ${burst.length} (${[...perKey].map(([k, n]) => `${k.split('?')[0]}×${n}`).join(', ')})`,
  );
  // No burst: each poll once on recovery and then at its own interval (3 s at the shortest), the
  // away lists once: at most two requests per endpoint and input in those 5 s.
  for (const [key, n] of perKey) expect(n, key).toBeLessThanOrEqual(2);
});

test('a buy whose answer is lost is unconfirmed, then confirmed exactly once', async ({ page }) => {
  await login(page, phone, PASSWORD);
  const before = (await relianceOrders()).length;
  await openTicket(page);
  proxy.loseAnswerOf(BUY, { thenSilent: true });
  await page
    .getByRole('dialog', { name: 'Buy RELIANCE?' })
    .getByRole('button', { name: 'Confirm buy' })
    .click();

  // The server filled it; the phone never heard. Never "failed": unconfirmed, and checked later.
  await expect(page.getByText('We are checking whether this reached us.', { exact: false })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByText('Submit failed')).toHaveCount(0);
  await snap(page, 'chaos-unconfirmed');
  expect((await relianceOrders()).length).toBe(before + 1);

  proxy.answer();
  const filled = page.getByRole('dialog', { name: 'Order filled' });
  await expect(filled).toBeVisible({ timeout: 20_000 });
  await expect(filled.getByTestId('result-filled')).toHaveText('1 of 1');
  // Exactly one fill: the question asked the server, nothing was sent again.
  expect((await relianceOrders()).length).toBe(before + 1);
  expect(proxy.requests.filter((r) => r.method === 'POST' && r.path === BUY).length).toBeGreaterThanOrEqual(
    1,
  );
  const bills = await api.get('/api/stock/success/v2/bill', {
    headers: { token },
    params: { type: 'expense', limit: 100 },
  });
  const buys = ((await bills.json()).data.rows as Array<{ reason: string }>).filter(
    (b) => b.reason === 'buyStock',
  );
  expect(buys.length).toBe(before + 1);
});

test('a buy that never reached the server offers "Submit again", and fills once', async ({ page }) => {
  await login(page, phone, PASSWORD);
  const before = (await relianceOrders()).length;
  await openTicket(page);
  proxy.neverDeliver(BUY, { thenSilent: true });
  const dialog = page.getByRole('dialog', { name: 'Buy RELIANCE?' });
  await dialog.getByRole('button', { name: 'Confirm buy' }).click();
  await expect(page.getByText('We are checking whether this reached us.', { exact: false })).toBeVisible({
    timeout: 20_000,
  });

  proxy.answer();
  await expect(page.getByText('This never reached us: nothing was charged.', { exact: false })).toBeVisible({
    timeout: 20_000,
  });
  await snap(page, 'chaos-missing');
  expect((await relianceOrders()).length).toBe(before);
  await dialog.getByRole('button', { name: 'Submit again' }).click();
  await expect(page.getByRole('dialog', { name: 'Order filled' })).toBeVisible();
  expect((await relianceOrders()).length).toBe(before + 1);
});
