import { expect, test } from './fixtures';
import {
  expectAccessible,
  goOffline,
  goOnline,
  INVITE,
  loginFresh,
  newPhone,
  registerViaApi,
  serviceWorkerReady,
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
    const { phone } = await registerViaApi(page);
    await page.goto('/login');
    await page.getByLabel('Phone number').fill(phone);
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
    // SPEC §5: the password's minimum of 6 is checked here; no login request leaves for it.
    let logins = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/stock/user/login')) logins += 1;
    });
    const { phone, password } = await registerViaApi(page);
    await page.getByLabel('Phone number').fill(phone);
    await page.getByLabel('Password', { exact: true }).fill('demo1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    // The toast first: it goes after 2.5 s of the page's time, which a loaded machine spent on
    // drawing Home before the check of the address was done.
    await expect(page.getByRole('status').filter({ hasText: 'Login successful' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    expect(logins).toBe(1);
  });

  test('a token the server never issued ends the session with "Incorrect authorization key"', async ({
    page,
  }) => {
    await loginFresh(page);
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('bourse.session') ?? '{}');
      stored.state.token = 'f'.repeat(64);
      localStorage.setItem('bourse.session', JSON.stringify(stored));
    });
    // Every status message the page shows is kept as it appears: the toast goes after 4 s, which a
    // loaded machine spent before a check could see it.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seenStatus: string[] }).seenStatus = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[role="status"]')) {
          const text = el.textContent?.trim();
          if (text && !seen.includes(text)) seen.push(text);
        }
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto('/account');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seenStatus: string[] }).seenStatus.join(' | ')))
      .toContain('Incorrect authorization key');
    await expect(page).toHaveURL(/\/login$/);
    await expectAccessible(page);
  });

  test.describe('offline', () => {
    test.use({ serviceWorkers: 'allow' });
    test('after a first visit the app shell loads offline', async ({ page, context }) => {
      await loginFresh(page);
      await serviceWorkerReady(page);
      await goOffline(context);
      await page.reload();
      await expect(page.getByText('Total assets')).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
      await goOnline(context);
    });
  });

  test('a remembered password is kept encrypted, fills login (never forgot-password), and logout drops it', async ({
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
    // Never filled by itself (hole 8): the user types the current password.
    await expect(page.getByLabel('Phone number')).toHaveValue(phone);
    await expect(page.getByLabel('Current password')).toBeVisible();
    await expect(page.getByLabel('Current password')).toHaveValue('');

    // Logging in without the box ticked forgets the password, keeping the phone number.
    await page.goto('/login');
    await page.getByRole('checkbox', { name: 'Remember password' }).uncheck();
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Total assets')).toBeVisible();
    await page.evaluate(() => localStorage.removeItem('bourse.session'));
    await page.goto('/login');
    await expect(page.getByLabel('Phone number')).toHaveValue(phone);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');

    // Remembered again, then logout: the password (and its key) goes, the phone number stays.
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('checkbox', { name: 'Remember password' }).check();
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByText('Total assets')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('bourse.remember') ?? '')).toContain('"secret"');
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Phone number')).toHaveValue(phone);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(page.getByRole('checkbox', { name: 'Remember password' })).not.toBeChecked();
    const after = await page.evaluate(() => localStorage.getItem('bourse.remember') ?? '');
    expect(after).toContain(phone);
    expect(after).not.toContain('"secret"');
    expect(
      await page.evaluate(async () => (await indexedDB.databases()).some((d) => d.name === 'bourse-vault')),
    ).toBe(false);
  });

  test('a German user opening login sees its header in German before the app scripts arrive', async ({
    page,
  }) => {
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    await page.addInitScript(() => localStorage.setItem('bourse.language', 'de'));
    // The app's script files never arrive (a slow phone network, frozen): the page alone shows.
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto('/login');
    await expect(page.locator('#boot-title')).toHaveText('Willkommen zurück');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await snap(page, 'login-shell');

    // Then they do: the screen takes the shell's place with the same header, and the form.
    await page.unrouteAll();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Willkommen zurück' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
    await expect(page.locator('#boot-title')).toHaveCount(0);
    // The inline script ran by its hash in the page's policy: nothing was refused.
    expect(refused).toEqual([]);
  });
});
