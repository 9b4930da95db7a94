import { type BrowserContext, expect, type Page } from '@playwright/test';

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

/** Saves a 390×844 screenshot for the team to look at (e2e/.screens, not committed). */
export async function snap(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENS) await page.screenshot({ path: `e2e/.screens/${name}.png` });
}

/**
 * Accessibility check of what is on screen: no serious or critical axe violations (WCAG 2 A/AA).
 * The message lists each violation with its first offending element.
 */
export async function expectAccessible(page: Page, exclude: string[] = []): Promise<void> {
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of exclude) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
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

/** A toast (role status) with this text. */
export const toast = (page: Page, text: string | RegExp) =>
  page.getByRole('status').filter({ hasText: text }).first();
