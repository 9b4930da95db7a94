import { expect, test } from '@playwright/test';
import {
  expectAccessible,
  goOffline,
  goOnline,
  INVITE,
  login,
  newPhone,
  registerViaApi,
  snap,
} from './support';

test.describe('accounts', () => {
  test('register with the invitation code, log in, see home, log out, and be kept out', async ({ page }) => {
    const phone = newPhone();
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await snap(page, 'login');
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Create account' }).click();
    // The login form stays on screen until the register screen has loaded: wait for it.
    await expect(page.getByRole('heading', { name: 'Create account' })).toBeVisible();
    await page.getByLabel('Phone number').fill(`${phone.slice(0, 5)}-ab${phone.slice(5)}`);
    await expect(page.getByLabel('Phone number')).toHaveValue(phone);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByLabel('Confirm password').fill('secret12');
    await page.getByLabel('Invitation code').fill(INVITE);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText('Passwords do not match');

    await page.getByLabel('Confirm password').fill('secret123');
    await page.getByLabel('Invitation code').fill('WRONG');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid invitation code');

    await page.getByLabel('Invitation code').fill(INVITE);
    await snap(page, 'register');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Registration successful')).toBeVisible();
    await expect(page.getByLabel('Phone number')).toHaveValue(phone);

    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Total assets')).toBeVisible();
    await expect(page.getByText('₹0.00').first()).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await snap(page, 'home');

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log out?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.goto('/settings');
    await expect(page).toHaveURL(/\/login$/);
    expect(
      await page.evaluate(
        () => JSON.parse(localStorage.getItem('bourse.session') ?? '{}').state?.token ?? null,
      ),
    ).toBeNull();
  });

  test('a wrong password shows the translated hint and keeps the user out', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Phone number').fill('9876543210');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid account password');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('login validates the phone before calling the server', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all required fields');
    await page.getByLabel('Phone number').fill('12345');
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter a valid 10-digit phone number');
  });

  test('after a first visit the app shell loads offline', async ({ page, context }) => {
    await login(page);
    await expect
      .poll(() =>
        page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null),
      )
      .toBe('activated');
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await goOffline(context);
    await page.reload();
    await expect(page.getByText('Total assets')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await goOnline(context);
  });

  test('a remembered password is kept encrypted, fills login and forgot-password, and can be dropped', async ({
    page,
  }) => {
    const phone = newPhone();
    await registerViaApi(page, phone, 'secret123');
    await page.goto('/login');
    await page.getByLabel('Phone number').fill(phone);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('checkbox', { name: 'Remember password' }).check();
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Total assets')).toBeVisible();
    // Only ciphertext reaches localStorage.
    const stored = await page.evaluate(() => localStorage.getItem('bourse.remember') ?? '');
    expect(stored).toContain(phone);
    expect(stored).toContain('"secret"');
    expect(stored).not.toContain('secret123');

    await page.evaluate(() => localStorage.removeItem('bourse.session'));
    await page.goto('/login');
    await expect(page.getByLabel('Phone number')).toHaveValue(phone);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('secret123');
    await expect(page.getByRole('checkbox', { name: 'Remember password' })).toBeChecked();
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page.getByLabel('Current password')).toHaveValue('secret123');

    // Logging in without the box ticked forgets the password, keeping the phone number.
    await page.goto('/login');
    await page.getByRole('checkbox', { name: 'Remember password' }).uncheck();
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Total assets')).toBeVisible();
    await page.evaluate(() => localStorage.removeItem('bourse.session'));
    await page.goto('/login');
    await expect(page.getByLabel('Phone number')).toHaveValue(phone);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  });
});
