import { expect, test } from './fixtures';
import { enrol } from './staff';
import { loginFresh, ops, snap } from './support';

/**
 * A deposit confirmed in the back office reaches the customer's balance: the customer recharges
 * in the app in one browser, a payments operator finds it in the deposit queue in another, confirms
 * it (the confirmation restates amount, customer and reference), and the customer's balance shows
 * the amount, credited once. The sandbox rail settles nothing here (SANDBOX_SETTLE_MS=-1), so the
 * operator's confirmation is the only way in, as with a real bank.
 */
test.use({ ownServer: 'deposits', serverEnv: { SANDBOX_SETTLE_MS: '-1' } });

test('a recharge confirmed in the back office reaches the customer balance', async ({ page, browser }) => {
  const customer = await loginFresh(page, '/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹0.00');
  await page.getByRole('link', { name: 'Recharge' }).click();
  await page.getByLabel('Recharge amount').fill('6000');
  await page.getByLabel('Bank transfer').check();
  // The transfer's reference as the bank app shows it: spaced, in small letters.
  await page.getByLabel('Bank reference (UTR), optional').fill('hdfc 0123 4567 89');
  await snap(page, 'wallet-recharge-reference');
  await page.getByRole('button', { name: 'Submit recharge' }).click();
  await expect(page.getByRole('dialog', { name: 'Request submitted' })).toBeVisible();

  const operator = await enrol(browser, 'payments', 'Dev Patel');
  const desk = operator.page;
  await expect(
    desk.getByRole('region', { name: 'Queues by type' }).getByText('Deposits to confirm'),
  ).toBeVisible();
  await expect(
    desk.getByRole('row', { name: new RegExp(`Deposit to confirm.*UTR HDFC0123456789.*${customer.phone}`) }),
  ).toContainText('₹6,000.00');
  // The nav entry carries the queue's count.
  await desk.getByRole('link', { name: 'Deposits 1 waiting' }).click();
  await expect(desk.getByRole('heading', { name: 'Deposits' })).toBeVisible();
  const row = desk.getByRole('row', { name: new RegExp(customer.phone) });
  await expect(row).toContainText('₹6,000.00');
  await expect(row).toContainText('HDFC0123456789');
  await snap(desk, 'ops-deposits');
  await row.getByRole('button', { name: 'Confirm…' }).click();
  const confirm = desk.getByRole('dialog', { name: /^Confirm deposit #\d+$/ });
  await expect(confirm.getByTestId('confirm-amount')).toHaveText('₹6,000.00');
  await expect(confirm).toContainText(customer.phone);
  await expect(confirm).toContainText('Bank reference');
  await expect(confirm).toContainText('HDFC0123456789');
  await snap(desk, 'ops-deposit-confirm');
  await confirm.getByRole('button', { name: 'Credit ₹6,000.00' }).click();
  await expect(desk.getByText(/^Deposit \d+ credited\.$/)).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.goto('/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹6,000.00');
  expect(ops('ledger:audit')).toMatch(/ledger audit: OK/);
  expect(ops('audit:verify')).toMatch(/chain unbroken/);
  await operator.page.context().close();
});
