import { expect, test } from './fixtures';
import { expectAccessible, loginFresh, ops, snap, toast } from './support';

/**
 * Price alerts: made on stock detail, listed with their state, fired by the server when
 * the market crosses them — here moved by the operator's clock — and shown in the inbox with an
 * unread count. This file moves the server's clock: a worker and server of its own (fixtures.ts).
 */
test.use({ ownServer: 'watch-alerts' });

test('alerts: set above and below, the market moves, the inbox has the fired alert', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['notifications']);
  const user = await loginFresh(page);
  // A second session for the test's own reads, from the same device as the app's (another device
  // would be told to the user in the inbox this test counts: the new-device notice).
  const device = await page.evaluate(() => localStorage.getItem('bourse.device'));
  const login = await page.request.post('/api/stock/user/login', {
    data: { user: user.phone, password: user.password, device },
  });
  const token = (await login.json()).data.token as string;
  const unread = async () =>
    (
      await (
        await page.request.get('/api/stock/success/notification/unread-count', { headers: { token } })
      ).json()
    ).data.unread_count as number;

  await page.goto('/stock/v2/RELIANCE.NS/Reliance%20Industries');
  await expect(page.getByTestId('price')).toHaveText(/\d/);
  // Above (1 % over the price, as the sheet suggests) …
  await page.getByRole('button', { name: 'Set price alert' }).click();
  const sheet = page.getByRole('dialog', { name: 'New price alert' });
  await expect(sheet.getByLabel('Price', { exact: true })).toHaveValue(/^\d+\.\d{2}$/);
  await expectAccessible(page);
  await snap(page, 'alert-new');
  await sheet.getByRole('button', { name: 'Set alert' }).click();
  await expect(toast(page, 'Alert set for RELIANCE')).toBeVisible();
  await expect(sheet).toBeHidden();
  // … and below (1 % under): whichever way the market goes, one of them fires.
  await page.getByRole('button', { name: 'Set price alert' }).click();
  await sheet.getByRole('radio', { name: 'Price below' }).click();
  await sheet.getByRole('button', { name: 'Set alert' }).click();
  await expect(sheet).toBeHidden();

  await page.goto('/alerts');
  const alerts = page.getByRole('list', { name: 'Price alerts' }).getByRole('listitem');
  await expect(alerts).toHaveCount(2);
  await expect(alerts.filter({ hasText: 'Active' })).toHaveCount(2);
  await expect(page.getByText('2 of 50 alerts · 2 active')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'alerts');

  // Move the market: a day of the operator's clock at a time until the server fired one.
  expect(await unread()).toBe(0);
  for (let day = 0; day < 10 && (await unread()) === 0; day++) {
    ops('clock:advance', '1d');
    await expect
      .poll(unread, { timeout: 5_000 })
      .toBeGreaterThan(0)
      .catch(() => undefined);
  }
  expect(await unread()).toBe(1);

  // The bell beside customer service counts it; the inbox shows it unread.
  await page.goto('/');
  const bell = page.getByRole('link', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  const items = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(/Reliance Industries (rose above|fell below) \d/);
  await expect(items.first()).toHaveAttribute('data-read', '0');
  await expectAccessible(page);
  await snap(page, 'inbox');

  // Opening it reads it and goes to the stock; the alert shows as triggered.
  await items.first().getByRole('button').click();
  await expect(page).toHaveURL(/\/stock\/v2\/RELIANCE\.NS\//);
  await expect.poll(unread).toBe(0);
  await page.goto('/alerts');
  await expect(alerts.filter({ hasText: 'Triggered' })).toHaveCount(1);
  await expect(alerts.filter({ hasText: 'Active' })).toHaveCount(1);
});
