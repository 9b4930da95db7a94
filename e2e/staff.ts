import type { Browser, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { serverNow } from './clock-start';
import { expect, workerServer } from './fixtures';
import { ops, snap } from './support';

/**
 * Back-office staff in a browser of their own: added by the console, enrolled through the back
 * office's screens with a password and an authenticator app, at a desk's 1366×768.
 */

export const DESK = {
  viewport: { width: 1366, height: 768 },
  isMobile: false,
  hasTouch: false,
  deviceScaleFactor: 1,
};
const STAFF_PASSWORD = 'a long desk password';
let signInSnapped = false;

export interface Member {
  page: Page;
  secret: string;
  token: string;
}

/** A member added by the console, enrolled through the back office's own screens. */
export async function enrol(browser: Browser, role: string, name: string): Promise<Member> {
  const login = `${role}${Date.now().toString(36)}`;
  const out = ops('staff:add', login, '--role', role, '--name', name);
  const token = /\/ops\/enrol#([A-Za-z0-9_-]+)/.exec(out)?.[1];
  expect(token, out).toBeTruthy();
  const context = await browser.newContext({
    ...DESK,
    deviceScaleFactor: process.env.E2E_SCREENS ? 2 : 1,
    baseURL: workerServer().url,
  });
  const page = await context.newPage();
  // The sign-in page, once per run, only for the team to look at (E2E_SCREENS).
  if (process.env.E2E_SCREENS && !signInSnapped) {
    signInSnapped = true;
    await page.goto('/ops/');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await snap(page, 'ops-sign-in');
  }
  await page.goto(`/ops/enrol#${token}`);
  await expect(page.getByLabel('Password again')).toBeVisible();
  await snap(page, 'ops-enrol-password');
  await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD);
  await page.getByLabel('Password again').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  // No way on without a second factor.
  await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible();
  await snap(page, 'ops-enrol-factor');
  await page.getByRole('button', { name: 'Authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await snap(page, 'ops-enrol-totp');
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const now = await serverNow(new URL(page.url()).origin);
  await page.getByLabel('The code the app shows').fill(totp.generate({ timestamp: now }));
  await page.getByRole('button', { name: 'Turn on and continue' }).click();
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible();
  const bearer = await page.evaluate(() => sessionStorage.getItem('bourse.ops.token'));
  return { page, secret, token: bearer! };
}
