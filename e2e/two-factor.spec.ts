import type { BrowserContext, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { serverNow } from './clock-start';
import { expect, test } from './fixtures';
import { goOffline, goOnline, INVITE, newPhone, snap } from './support';

/** The phone's own authenticator (Chromium's virtual one): user-verified, answers without a tap. */
async function platformAuthenticator(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/**
 * Two-factor sign-in in Chromium: a passkey on a virtual authenticator (DevTools'
 * WebAuthn domain, user verification on) enrolled in Settings → Security, then the sign-in with
 * password + passkey; the app lock after a background period (visibility and time driven by the
 * test, no waiting), its DOM free of figures, opened online and offline (the passkey checked on
 * the device); an authenticator app enrolled from its key and a sign-in with a code computed
 * from it. Passkeys need a domain, not an IP address: these journeys use http://localhost.
 */
/** This worker's server by name (WEBAUTHN_RP_ID's default), set before each journey. */
let ORIGIN = '';
test.beforeEach(({ server }) => {
  ORIGIN = server.url.replace('127.0.0.1', 'localhost');
});
const PASSWORD = 'secret123';

async function register(page: Page): Promise<string> {
  const phone = newPhone();
  const res = await page.request.post(`${ORIGIN}/api/stock/user/reg`, {
    data: { user: phone, password: PASSWORD, code: INVITE },
  });
  expect((await res.json()).msg).toBe('ok');
  return phone;
}

/** The password step of the login screen (in any language); what follows depends on the account. */
async function enterPassword(page: Page, phone: string): Promise<void> {
  await page.goto(`${ORIGIN}/login`);
  await page.locator('input[autocomplete="username"]').fill(phone);
  await page.locator('input[autocomplete="current-password"]').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
}

/** Signed in: SPEC §4, a login goes home (also right after a logout from Settings). */
async function expectSignedIn(page: Page): Promise<void> {
  await expect(page).toHaveURL(`${ORIGIN}/`);
}

async function logOut(page: Page): Promise<void> {
  await page.goto(`${ORIGIN}/settings`);
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('dialog', { name: 'Log out?' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The app goes to the background for `ms` (page visibility and the page's clock, both driven here). */
async function background(page: Page, ms: number): Promise<void> {
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((s) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  await setVisibility('hidden');
  await page.clock.fastForward(ms);
  await setVisibility('visible');
}

/** German at 320 px (E2E_SCREENS only), then back to English at 390. */
async function snapGerman(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  const setting = process.env.E2E_SCREENS;
  if (!setting) return;
  const dir = setting === '1' ? 'e2e/.screens' : setting;
  await page.evaluate(() => localStorage.setItem('bourse.language', 'de'));
  await page.setViewportSize({ width: 320, height: 720 });
  await show();
  await page.screenshot({ path: `${dir}/${name}-de-320.png` });
  await page.evaluate(() => localStorage.setItem('bourse.language', 'en'));
  await page.setViewportSize({ width: 390, height: 844 });
}

test('passkey: enrol, sign in with it, and the app lock opens online and offline', async ({
  page,
  context,
}) => {
  await platformAuthenticator(context, page);
  await page.clock.install();
  const phone = await register(page);
  await enterPassword(page, phone);
  await expect(page).toHaveURL(`${ORIGIN}/`);

  // Settings → Security: add a passkey; its first recovery codes are shown once.
  await page.goto(`${ORIGIN}/settings`);
  await page.getByRole('link', { name: /Two-step sign-in/ }).click();
  await expect(page.getByRole('heading', { name: 'Sign-in & security' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('dialog', { name: 'Add a passkey' });
  await add.getByLabel('Name').fill('Test phone');
  await add.getByRole('button', { name: 'Create passkey' }).click();
  const codes = page.getByRole('dialog', { name: 'Recovery codes' });
  await expect(codes.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  await snap(page, 'two-factor-recovery-codes');
  await codes.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('passkey')).toContainText('Test phone');
  await snap(page, 'two-factor-security');

  // Out, and in again: the password leads to the second step; the passkey opens the session.
  await logOut(page);
  await enterPassword(page, phone);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await snap(page, 'two-factor-second-step');
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expectSignedIn(page);
  await expect(page.getByText('Total assets')).toBeVisible();
  // The enrolment reached the inbox.
  await page.goto(`${ORIGIN}/notifications`);
  await expect(page.getByText('Passkey “Test phone” added to your account')).toBeVisible();
  await page.goto(`${ORIGIN}/account`);
  await expect(page.getByText('Total assets')).toBeVisible();

  // Six minutes in the background (the setting is five): the lock screen, and no figure in the DOM.
  await background(page, 6 * 60_000);
  const lock = page.getByTestId('lock-screen');
  await expect(lock.getByRole('button', { name: 'Unlock with passkey' })).toBeVisible();
  const shown = await page.evaluate(() => document.body.textContent ?? '');
  expect(shown).not.toMatch(/Total assets|₹|\d[\d,]*\.\d\d/);
  expect(await page.locator('main').count()).toBe(1);
  await snap(page, 'two-factor-lock');
  await snapGerman(page, 'two-factor-lock', async () => {
    await page.reload();
    await expect(lock.getByRole('button', { name: 'Mit Passkey entsperren' })).toBeVisible();
  });
  // A reload does not open it.
  await page.reload();
  await expect(lock).toBeVisible();
  await lock.getByRole('button', { name: 'Unlock with passkey' }).click();
  await expect(page.getByText('Total assets')).toBeVisible();
  await expect(lock).toHaveCount(0);

  // Offline: the passkey is checked on the device against its public key; the last-known data shows.
  await background(page, 6 * 60_000);
  await expect(lock).toBeVisible();
  await goOffline(context);
  await expect(lock.getByText('You are offline')).toBeVisible();
  await lock.getByRole('button', { name: 'Unlock with passkey' }).click();
  await expect(page.getByText('Unlocked on this device: showing the last known data')).toBeVisible();
  await expect(page.getByText('Total assets')).toBeVisible();
  await goOnline(context);
});

test('authenticator app: enrol from its key, sign in with a code computed from it; a passkey only with its proof', async ({
  page,
  context,
  browser,
}) => {
  const phone = await register(page);
  await enterPassword(page, phone);
  await expect(page).toHaveURL(`${ORIGIN}/`);
  await page.goto(`${ORIGIN}/settings/security`);
  await page.getByRole('button', { name: 'Set up' }).click();
  const sheet = page.getByRole('dialog', { name: 'Set up an authenticator app' });
  await expect(sheet.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const key = ((await sheet.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await snap(page, 'two-factor-totp-enrol');
  await snapGerman(page, 'two-factor-totp-enrol', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Einrichten' }).click();
    await expect(page.getByTestId('totp-secret')).toBeVisible();
  });
  // The German view set up its own secret: the one on screen now is the one to use.
  if (process.env.E2E_SCREENS) {
    await page.reload();
    await page.getByRole('button', { name: 'Set up' }).click();
  }
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s+/g, '');
  const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  const origin = new URL(page.url()).origin;
  await page
    .getByLabel('3. Enter the 6-digit code the app shows')
    .fill(app.generate({ timestamp: await serverNow(origin) }));
  await page.getByRole('button', { name: 'Turn on' }).click();
  // Two of its recovery codes, as a user would write them down (used below).
  await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
  const saved = await page.getByTestId('recovery-codes').locator('li').allTextContents();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('Codes from an app').locator('..')).toContainText('On');

  await logOut(page);
  await enterPassword(page, phone);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  // The confirming code was good once: the next step's code signs in.
  await page
    .getByLabel('Code from your authenticator app')
    .fill(app.generate({ timestamp: (await serverNow(origin)) + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);

  // A passkey is added only with a proof of the app the account already has.
  await platformAuthenticator(context, page);
  await page.goto(`${ORIGIN}/settings/security`);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  const add = page.getByRole('dialog', { name: 'Add a passkey' });
  await add.getByLabel('Name').fill('Laptop');
  await add.getByRole('button', { name: 'Create passkey' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await expect(stepUp.getByLabel('Code from your authenticator app')).toBeVisible();
  await snap(page, 'two-factor-step-up');
  // A wrong code adds nothing; a recovery code does (the app's codes of this half-minute are
  // used up by the sign-in), and is shown as used.
  await stepUp.getByLabel('Code from your authenticator app').fill('000000');
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expect(stepUp.getByRole('alert')).toContainText(/not right|already used/);
  await expect(page.getByTestId('passkey')).toHaveCount(0);
  await stepUp.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await stepUp.getByLabel('Recovery code').fill(saved[0]!);
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('passkey')).toContainText('Laptop');
  await expect(stepUp).toHaveCount(0);
  await expect(page.getByText('9 recovery codes left')).toBeVisible();
  await snapGerman(page, 'two-factor-step-up', async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Passkey hinzufügen' }).click();
    const hinzu = page.getByRole('dialog', { name: 'Passkey hinzufügen' });
    await hinzu.getByRole('button', { name: 'Passkey erstellen' }).click();
    await expect(page.getByRole('dialog', { name: 'Bestätigen Sie, dass Sie es sind' })).toBeVisible();
  });

  // Another device's next sign-in is told, with when and from where, until it acknowledges.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone2 = await other.newPage();
  await enterPassword(phone2, phone);
  await phone2.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await phone2.getByLabel('Recovery code').fill(saved[1]!);
  await phone2.getByRole('button', { name: 'Verify' }).click();
  const changed = phone2.getByRole('dialog', { name: 'Your security changed' });
  await expect(changed.getByTestId('security-change').first()).toContainText('A passkey was added');
  await expect(changed).toContainText('An authenticator app was turned on');
  await snap(phone2, 'two-factor-security-changed');
  await changed.getByRole('button', { name: 'It was me' }).click();
  await expect(changed).toHaveCount(0);
  await phone2.reload();
  await expect(phone2.getByText('Total assets')).toBeVisible();
  await expect(phone2.getByRole('dialog', { name: 'Your security changed' })).toHaveCount(0);
  await other.close();
  if (process.env.E2E_SCREENS) {
    await logOut(page);
    await snapGerman(page, 'two-factor-second-step', async () => {
      await enterPassword(page, phone);
      await expect(page.getByRole('heading', { name: 'Anmeldung in zwei Schritten' })).toBeVisible();
    });
  }
});
