import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { isMarketOpen, nextSession } from '../src/shared/market-hours';

/** Helpers the journeys share. Users are created through the real screens or the real API. */
export const DEMO = { phone: '9876543210', password: 'demo1234' };
export const INVITE = 'BOURSE26';

let seq = 0;
/** A phone number no other test of this run uses. */
export function newPhone(): string {
  seq += 1;
  return `6${String(Date.now()).slice(-7)}${String(seq).padStart(2, '0')}`.slice(0, 10);
}

export async function login(page: Page, phone = DEMO.phone, password = DEMO.password): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** Registers through the API of the running server and returns the credentials. */
export async function registerViaApi(
  page: Page,
  phone = newPhone(),
  password = 'secret123',
): Promise<{ phone: string; password: string }> {
  const res = await page.request.post('/api/stock/user/reg', {
    data: { user: phone, password, code: INVITE },
  });
  expect((await res.json()).msg).toBe('ok');
  return { phone, password };
}

/**
 * A new user registered and signed in through the API, with `amount` recharged and settled by the
 * sandbox rail (waits on the balance, not on time). Returns the session token.
 */
export async function fundedUserViaApi(
  api: APIRequestContext,
  phone: string,
  password: string,
  amount: number,
): Promise<string> {
  const reg = await api.post('/api/stock/user/reg', { data: { user: phone, password, code: INVITE } });
  expect((await reg.json()).msg).toBe('ok');
  const signIn = await api.post('/api/stock/user/login', { data: { user: phone, password } });
  const token: string = (await signIn.json()).data.token;
  const recharge = await api.post('/api/stock/success/v2/recharge/add', {
    headers: { token },
    data: { count: amount },
  });
  expect((await recharge.json()).msg).toBe('ok');
  await expect
    .poll(
      async () =>
        (await (await api.get('/api/stock/success/v2/user/info', { headers: { token } })).json()).data.money,
      { timeout: 20_000 },
    )
    .toBe(amount.toFixed(2));
  return token;
}

/**
 * Texts on screen cut off because they did not fit (issue 17): a name clamped to two (or three)
 * lines that needs more, any text ending in an ellipsis, or a figure of a stat grid (a `dd`) running out of its
 * column. Also how many such boxes were measured, so a check
 * cannot pass on a screen that has none.
 */
export async function cutOffTexts(page: Page): Promise<{ measured: number; cut: string[] }> {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll<HTMLElement>('main *')]
      .map((el) => ({ el, style: getComputedStyle(el) }))
      .filter(
        ({ el, style }) =>
          style.webkitLineClamp !== 'none' || style.textOverflow === 'ellipsis' || el.tagName === 'DD',
      );
    const cut = boxes
      .filter(({ el, style }) =>
        style.webkitLineClamp !== 'none'
          ? el.scrollHeight > el.clientHeight + 1
          : el.scrollWidth > el.clientWidth + 1,
      )
      .map(({ el }) => el.textContent ?? '');
    return { measured: boxes.length, cut };
  });
}

/**
 * An NSE stock's buy on the order ticket up to its review sheet, as a user makes it: the quantity,
 * the estimate, Buy; the sheet shows the total, the server's charges one by one and the balance.
 */
export async function reviewBuy(page: Page, code: string, count: number) {
  await page.goto(`/trading/${code}`);
  await expect(page).toHaveURL(new RegExp(`/stock/trading/${code}\\.NS/`));
  await page.getByRole('textbox', { name: 'Quantity' }).fill(String(count));
  const estimate = page.getByTestId('trade-estimate');
  await expect(estimate).toHaveText(/₹[\d,]+\.\d{2}/);
  await page.getByRole('button', { name: `Buy ${code}` }).click();
  const confirm = page.getByRole('dialog', { name: `Buy ${code}?` });
  const review = confirm.getByTestId('trade-confirm');
  await expect(review.getByText('Total cost (estimated)')).toBeVisible();
  for (const label of ['Brokerage', 'Securities transaction tax (STT)', 'Stamp duty', 'GST', 'Charges']) {
    await expect(review.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(review.getByText('Available balance')).toBeVisible();
  return { estimate, confirm, review };
}

/**
 * Saves light and dark screenshots of the viewport (390×844 unless the journey set another) for the
 * team to look at (E2E_SCREENS; never committed); `fullPage` for the whole length of the page.
 */
export async function snap(page: Page, name: string, { fullPage = false } = {}): Promise<void> {
  const setting = process.env.E2E_SCREENS;
  if (!setting) return;
  const dir = setting === '1' ? 'e2e/.screens' : setting;
  await page.screenshot({ path: `${dir}/${name}-light.png`, fullPage });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${dir}/${name}-dark.png`, fullPage });
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Accessibility check of what is on screen, in the light and the dark theme: no serious or critical
 * axe violations (WCAG 2 A/AA; colour contrast is where the themes differ), label in name (WCAG
 * 2.5.3) included: axe marks `label-content-name-mismatch` experimental and runs it only when named.
 * The message lists each violation with its theme and first offending element. The page is left in
 * the light theme.
 */
export async function expectAccessible(page: Page, exclude: string[] = []): Promise<void> {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const bad: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    let builder = new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
    for (const selector of exclude) builder = builder.exclude(selector);
    const { violations } = await builder.analyze();
    for (const v of violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
      bad.push(`${colorScheme}: ${v.id} (${v.impact}): ${v.help} — ${v.nodes[0]?.target.join(' ')}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(bad).toEqual([]);
}

/**
 * Scrolled to the end of the page, the floating customer-service button covers nothing of `target`
 * (a list's last row, its pager): screens leave room for it.
 */
export async function expectClearOfService(page: Page, target: Locator): Promise<void> {
  const button = page.getByRole('link', { name: /^Customer service/ }).last();
  await expect(button).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect
    .poll(async () => {
      const [a, b] = await Promise.all([button.boundingBox(), target.boundingBox()]);
      if (!a || !b) return 'not laid out';
      const overlap =
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      return overlap ? `covered: button ${JSON.stringify(a)} over ${JSON.stringify(b)}` : 'clear';
    })
    .toBe('clear');
}

/** Logs in a fresh user created through the API (each journey owns its user). */
export async function loginFresh(page: Page): Promise<{ phone: string; password: string }> {
  const user = await registerViaApi(page);
  await login(page, user.phone, user.password);
  return user;
}

/** Offline for the page and its service worker: setOffline does not cut the worker's own fetches. */
export async function goOffline(context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
}

export async function goOnline(context: BrowserContext): Promise<void> {
  await context.unroute('**/*');
  await context.setOffline(false);
}

/**
 * A price the server can no longer refresh is marked: "Last known" while its market trades, or
 * "Closed · as of …" once the market has closed (its last price is then right, not stale — issue
 * 11). Which one depends on the hour the suite runs, so either tier passes, each with its words.
 */
export async function expectPriceNotLive(price: Locator): Promise<void> {
  const asOf = price.locator('[data-tier]');
  await expect(asOf).toHaveAttribute('data-tier', /^(stale|closed)$/);
  const tier = await asOf.getAttribute('data-tier');
  if (tier === 'stale') await expect(asOf).toContainText('Last known');
  // The close's time, with its date when it was not today (a run after midnight, a weekend).
  else await expect(asOf).toContainText(/^Closed · as of (\d\d\/\d\d\/\d{4}, )?\d\d:\d\d/);
}

/** A toast (role status) with this text. */
export const toast = (page: Page, text: string | RegExp) =>
  page.getByRole('status').filter({ hasText: text }).first();

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * A tool of ours run against the e2e server's database (`playwright.config.ts` makes it under
 * E2E_DIR), without npm's start-up: `script` is a path from the repository root.
 */
export function runTool(script: string, args: string[] = [], input?: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    input,
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(process.env.E2E_DIR!, 'e2e.db')}` },
  });
}

/** The real operator CLI (`npm run ops -- …`). */
export const ops = (...args: string[]): string => runTool('server/ops/cli.ts', args);

/** The server's clock now: the real time moved by the operator's offset (`clock:advance` prints it). */
export function serverClockNow(): number {
  return Date.now() + Number(/-?\d+/.exec(ops('clock:advance', '0ms'))![0]);
}

/**
 * Moves the server's clock forward to `at`, a time inside a session of `symbol`'s market, and waits
 * until its quotes are stamped there (the server follows the operator's clock within a second).
 */
export async function advanceServerClockTo(api: APIRequestContext, at: number, symbol = 'RELIANCE.NS') {
  ops('clock:advance', `${Math.ceil(at - serverClockNow())}ms`);
  await expect
    .poll(async () => (await (await api.get(`/api/v2/quote?symbol=${symbol}`)).json()).data.as_of, {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(at);
}

/**
 * Into the middle of an NSE session when the server's clock is outside one (issue 30: a market
 * order there is an after-market order, and a lot is neither bought nor sold).
 */
export async function intoNseSession(api: APIRequestContext): Promise<void> {
  const now = serverClockNow();
  if (isMarketOpen({ schedule: 'NSE' }, now)) return;
  await advanceServerClockTo(api, nextSession('NSE', now).open + 90 * 60_000);
}

/** The service worker controls the page (the shell and its code then come from the device). */
export async function serviceWorkerReady(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null),
    )
    .toBe('activated');
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}
