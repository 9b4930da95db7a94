import fs from 'node:fs';
import { createRequire } from 'node:module';
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from '@playwright/test';
import { isMarketOpen, nextSession } from '../src/shared/market-hours';
import { workerServer } from './fixtures';
import { runBuilt } from './server';

/** Helpers the journeys share. Users are created through the real screens or the real API. */
export const INVITE = 'BOURSE26';

/**
 * This process's share of phone numbers: its worker's parallel index (workers running at once have
 * different ones) and the second it started (a worker after it in the same slot starts later).
 */
const PHONE_PREFIX = `6${process.env.TEST_PARALLEL_INDEX ?? '9'}${String(Math.floor(Date.now() / 1000) % 10_000).padStart(4, '0')}`;
let seq = 0;
/** A phone number no other journey of this run uses, in any worker. */
export function newPhone(): string {
  seq += 1;
  if (seq > 9999) throw new Error('newPhone: more than 9,999 numbers in one worker');
  return `${PHONE_PREFIX}${String(seq).padStart(4, '0')}`;
}

/**
 * Signs in through the login screen, onto Home; or with `to`, on the way to that screen, as a user
 * who opens a link while signed out: the app sends them to login and, signed in, on to `to` (its
 * path, without a query). A journey about another screen starts there without rendering Home first
 * and loading the whole page again (about a second of the 2-core machine's CPU each time).
 */
export async function login(page: Page, phone: string, password: string, to?: string): Promise<void> {
  await page.goto(to ?? '/login');
  if (to) await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Phone number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  if (to) await expect(page).not.toHaveURL(/\/login$/);
  else await expect(page).toHaveURL(/\/$/);
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
      // The sandbox settles it after SANDBOX_SETTLE_MS (3 s) at its job's next run: a loaded
      // machine took over 20 s.
      { timeout: 60_000 },
    )
    .toBe(amount.toFixed(2));
  return token;
}

/**
 * Texts on screen cut off because they did not fit: a name clamped to two (or three)
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

/** The axe rules whose outcome depends on the colours: what differs between the two themes. */
const THEME_RULES = ['color-contrast', 'link-in-text-block'];
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** axe-core's script, the one @axe-core/playwright ships. */
const AXE_SOURCE = fs.readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve(
    'axe-core/axe.min.js',
  ),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * One axe run in the page: axe-core evaluated once per document and run there. AxeBuilder evaluated
 * the 550 KB script four times per check and finished each run in a new page: axe was 45 % of a
 * journey's CPU, and its one-second injection timeout passed on a loaded machine.
 */
async function axeRun(page: Page, options: object, exclude: string[]): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function')))
    await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ([options, exclude]) => {
      const axe = (
        window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: AxeViolation[] }> } }
      ).axe;
      const context = exclude.length ? { exclude: exclude.map((s) => [s]) } : document;
      return (await axe.run(context, options)).violations;
    },
    [options, exclude] as const,
  );
}

/**
 * Accessibility check of what is on screen: no serious or critical axe violations (WCAG 2 A/AA)
 * in the light theme, label in name (WCAG 2.5.3) included — axe marks `label-content-name-mismatch`
 * experimental and runs it only when named — and in the dark theme the rules that depend on the
 * colours (`THEME_RULES`), the only place the themes differ: one full scan per check, not two.
 * The message lists each violation with its theme and first offending element. The page is left
 * in the light theme.
 */
export async function expectAccessible(page: Page, exclude: string[] = []): Promise<void> {
  const bad: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const options =
      colorScheme === 'light'
        ? {
            runOnly: { type: 'tag', values: AXE_TAGS },
            rules: { 'label-content-name-mismatch': { enabled: true } },
            resultTypes: ['violations'],
          }
        : { runOnly: { type: 'rule', values: THEME_RULES }, resultTypes: ['violations'] };
    for (const v of await axeRun(page, options, exclude)) {
      if (v.impact === 'serious' || v.impact === 'critical')
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

/**
 * Logs in a fresh user with `amount` (default ₹10,00,000, the demo's balance) recharged and settled:
 * each journey owns its users, never the demo's shared account.
 */
export async function loginFunded(
  page: Page,
  amount = 1_000_000,
  to?: string,
): Promise<{ phone: string; password: string }> {
  const user = { phone: newPhone(), password: 'secret123' };
  await fundedUserViaApi(page.request, user.phone, user.password, amount);
  await login(page, user.phone, user.password, to);
  return user;
}

/** Logs in a fresh user created through the API (each journey owns its user), onto `to` (`login`). */
export async function loginFresh(page: Page, to?: string): Promise<{ phone: string; password: string }> {
  const user = await registerViaApi(page);
  await login(page, user.phone, user.password, to);
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

/**
 * A tool of ours run against the database of this worker's server (fixtures.ts): `script` is a
 * path from the repository root (a .ts runs through tsx).
 */
export function runTool(script: string, args: string[] = [], input?: string): string {
  return runBuilt(script, workerServer().databaseUrl, args, input);
}

/** The real operator console (`npm run ops -- …`) on this worker's server's database. */
export const ops = (...args: string[]): string => workerServer().ops(...args);

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
 * Into the middle of an NSE session when the server's clock is outside one (a market
 * order there is an after-market order, and a lot is neither bought nor sold).
 */
export async function intoNseSession(api: APIRequestContext): Promise<void> {
  const now = serverClockNow();
  if (isMarketOpen({ schedule: 'NSE' }, now)) return;
  await advanceServerClockTo(api, nextSession('NSE', now).open + 90 * 60_000);
}

/** The service worker controls the page (the shell and its code then come from the device). */
export async function serviceWorkerReady(page: Page): Promise<void> {
  // Installing precaches the whole shell (about two hundred files, one after another): at load 18 on
  // the 2-core machine that took past 100 s. So the wait is on progress, not on a clock: it lasts
  // while the precache grows and fails only when the install stands still for STALL_MS.
  const STALL_MS = 30_000;
  let last = { state: null as string | null, cached: -1 };
  let movedAt = Date.now();
  for (;;) {
    const now = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      let cached = 0;
      for (const name of await caches.keys())
        if (name.includes('precache')) cached += (await (await caches.open(name)).keys()).length;
      return { state: registration?.active?.state ?? registration?.installing?.state ?? null, cached };
    });
    if (now.state === 'activated') break;
    if (now.state !== last.state || now.cached !== last.cached) movedAt = Date.now();
    if (Date.now() - movedAt > STALL_MS)
      throw new Error(
        `the service worker's install stood still for ${STALL_MS / 1000} s: state ${now.state}, ${now.cached} files precached`,
      );
    last = now;
    // A page's own wait between two looks: the state is read, never assumed after a delay.
    await page.waitForTimeout(500);
  }
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}
