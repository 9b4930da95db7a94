import { expect, test } from './fixtures';
import { enrol } from './staff';
import { login, loginFresh, ops, snap } from './support';

/**
 * Freezing a customer, two people in the back office and the customer in a browser of their own:
 * a payments member asks for the freeze with a reason (the dialog restates what will
 * happen), cannot approve it themselves, an approver approves it from the customer page; the
 * customer's session ends, and signed in again they read their balance but a recharge is refused
 * with the frozen message. The unfreeze takes two people again and the recharge goes through.
 */
test.use({ ownServer: 'freeze', serverEnv: { SANDBOX_SETTLE_MS: '-1' } });

async function openCustomer(page: import('@playwright/test').Page, phone: string) {
  await page.getByLabel(/^Find a customer by phone/).fill(phone);
  await page.getByRole('list', { name: 'Customers found' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 2, name: 'Account' })).toBeVisible();
}

test('staff freeze a customer: their session ends and their money calls are refused until two people unfreeze', async ({
  page,
  browser,
}) => {
  const customer = await loginFresh(page);
  await page.goto('/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹0.00');

  const maker = await enrol(browser, 'payments', 'Dev Patel');
  await openCustomer(maker.page, customer.phone);
  await expect(maker.page.getByTestId('account-status')).toHaveText('Active');
  await maker.page.getByRole('button', { name: 'Freeze…' }).click();
  const ask = maker.page.getByRole('dialog', { name: /^Ask for: freeze of / });
  await expect(ask.getByTestId('control-effect')).toContainText(
    'Nothing changes until another member approves',
  );
  await expect(ask.getByTestId('control-effect')).toContainText('Buying, selling, withdrawing');
  await ask.getByLabel(/^Reason/).fill('Card reported stolen by the bank');
  await ask.getByRole('button', { name: 'Ask for the second approval' }).click();
  await expect(maker.page.getByTestId('account-request')).toContainText('Freeze awaits 2nd approval');
  await expect(maker.page.getByText('Another member approves your request.')).toBeVisible();
  await expect(maker.page.getByRole('button', { name: /^Approve/ })).toHaveCount(0);

  // The request waits in the queue; the approver opens it from there.
  const checker = await enrol(browser, 'approver', 'Mira Shah');
  const item = checker.page.getByRole('row', {
    name: new RegExp(`Freeze awaiting a second approval.*${customer.phone}`),
  });
  await expect(item).toBeVisible();
  await item.getByRole('link').first().click();
  await checker.page.getByRole('button', { name: 'Approve freeze' }).click();
  const approve = checker.page.getByRole('dialog', { name: /^Approve: freeze of / });
  await expect(approve).toContainText('Card reported stolen by the bank');
  await expect(approve.getByTestId('control-effect')).toContainText('Approving does it now');
  await snap(checker.page, 'ops-freeze-approve');
  await approve.getByRole('button', { name: 'Approve: freeze now' }).click();
  await expect(checker.page.getByTestId('account-status')).toContainText('Frozen since');
  await snap(checker.page, 'ops-customer-frozen');

  // The customer's session is over; signed in again, reading works, money does not move.
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  await login(page, customer.phone, customer.password);
  await page.goto('/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹0.00');
  // Said before any form is filled, on every screen.
  await expect(page.getByTestId('account-frozen')).toContainText('Your account is frozen');
  await snap(page, 'frozen-account');
  await page.getByRole('link', { name: 'Recharge' }).click();
  await expect(page.getByTestId('account-frozen')).toBeVisible();
  await page.getByLabel('Recharge amount').fill('6000');
  await page.getByLabel('Bank transfer').check();
  await page.getByRole('button', { name: 'Submit recharge' }).click();
  await expect(page.getByText(/Your account is frozen/).first()).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Request submitted' })).toHaveCount(0);
  await snap(page, 'frozen-recharge-refused');
  // The inbox says what happened and what it means, in the customer's language.
  await page.goto('/notifications');
  await expect(page.getByText('Your account was frozen by Bourse support')).toBeVisible();
  await expect(page.getByText(/Buying, selling and moving money are paused/)).toBeVisible();
  await snap(page, 'frozen-notice');

  // Unfreeze: two people again.
  await maker.page.reload();
  await maker.page.getByRole('button', { name: 'Unfreeze…' }).click();
  const unfreeze = maker.page.getByRole('dialog', { name: /^Ask for: unfreeze of / });
  await unfreeze.getByLabel(/^Reason/).fill('Bank confirmed the card is safe');
  await unfreeze.getByRole('button', { name: 'Ask for the second approval' }).click();
  await checker.page.reload();
  await checker.page.getByRole('button', { name: 'Approve unfreeze' }).click();
  await checker.page
    .getByRole('dialog', { name: /^Approve: unfreeze of / })
    .getByRole('button', { name: 'Approve: unfreeze now' })
    .click();
  await expect(checker.page.getByTestId('account-status')).toHaveText('Active');

  await page.goto('/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹0.00');
  await expect(page.getByTestId('account-frozen')).toHaveCount(0);
  await page.getByRole('link', { name: 'Recharge' }).click();
  await page.getByLabel('Recharge amount').fill('6000');
  await page.getByLabel('Bank transfer').check();
  await page.getByRole('button', { name: 'Submit recharge' }).click();
  await expect(page.getByRole('dialog', { name: 'Request submitted' })).toBeVisible();

  expect(ops('ledger:audit')).toMatch(/ledger audit: OK/);
  expect(ops('audit:verify')).toMatch(/chain unbroken/);
  await maker.page.context().close();
  await checker.page.context().close();
});
