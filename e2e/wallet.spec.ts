import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible, login, ops, registerViaApi, snap } from './support';

/*
 * The wallet against the real server: recharge (settled by the sandbox provider after
 * SANDBOX_SETTLE_MS=3000), withdraw to a bank card, the bill list, records and their detail, and
 * loans with the operator's approval through the real ops CLI. Each journey owns a fresh user.
 */

/** The transaction password these journeys' users set. */
const CODE = '246810';

/** A fresh user, logged in on the page, with an API token of its own for set-up calls. */
async function freshUser(page: Page): Promise<{ token: string }> {
  const user = await registerViaApi(page);
  const res = await page.request.post('/api/stock/user/login', {
    data: { user: user.phone, password: user.password },
  });
  const token = (await res.json()).data.token as string;
  await login(page, user.phone, user.password);
  return { token };
}

async function api<T>(page: Page, token: string, method: 'GET' | 'POST', url: string, data?: object) {
  const headers = { token, 'Idempotency-Key': crypto.randomUUID() };
  const res =
    method === 'GET'
      ? await page.request.get(`/api${url}`, { headers })
      : await page.request.post(`/api${url}`, { headers, data });
  const body = await res.json();
  expect(body.msg, `${url}: ${JSON.stringify(body)}`).toBe('ok');
  return body.data as T;
}

/** Funds a user through the real recharge flow and waits for the sandbox to settle it. */
async function fund(page: Page, token: string, units: number): Promise<void> {
  await api(page, token, 'POST', '/stock/success/v2/recharge/add', { count: units });
  await expect
    .poll(
      async () => (await api<{ balance: string }>(page, token, 'GET', '/stock/success/v2/balance')).balance,
      {
        timeout: 15_000,
      },
    )
    .toBe(`${units}.00`);
}

test('recharge: validation, confirmation, records in progress then settled, balance and bills', async ({
  page,
}) => {
  await freshUser(page);
  await page.goto('/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹0.00');
  await expect(page.locator('section[aria-labelledby="account-markets"] li')).toHaveCount(3);
  await expectAccessible(page);
  await snap(page, 'wallet-account');
  // The narrowest phone: nothing sticks out sideways.
  await page.setViewportSize({ width: 320, height: 700 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await snap(page, 'wallet-account-320');
  await page.setViewportSize({ width: 390, height: 844 });

  await page.getByRole('link', { name: 'Recharge' }).click();
  await expect(page).toHaveURL(/\/recharge$/);
  await expect(page.getByText('credited to your account within 24 hours').first()).toBeVisible();
  const amount = page.getByLabel('Recharge amount');
  const submit = page.getByRole('button', { name: 'Submit recharge' });

  // Disabled until the form is valid (the password screens' rule), and a tap says why.
  await expect(submit).toHaveAttribute('aria-disabled', 'true');
  await submit.click({ force: true });
  await expect(page.getByText('Please enter recharge amount')).toBeVisible();
  await amount.fill('12ab3.4');
  await expect(amount).toHaveValue('1234');
  await expect(page.getByText('The minimum recharge amount is 5000')).toBeVisible();
  await expect(submit).toBeDisabled();
  await amount.fill('5000');
  await expect(submit).toBeDisabled();
  await submit.click({ force: true });
  await expect(page.getByText('Please select recharge method')).toBeVisible();
  await page.getByLabel('Bank transfer').check();
  await expect(submit).toBeEnabled();
  await amount.fill('6000');
  await expectAccessible(page);
  await snap(page, 'wallet-recharge');
  await submit.click();

  // The sandbox settles after 3 s: look at the confirmation and the record before anything slow.
  const done = page.getByRole('dialog', { name: 'Request submitted' });
  await expect(done.getByText('Recharge request submitted successfully')).toBeVisible();
  await expect(done.getByText('₹6,000.00')).toBeVisible();
  await done.getByRole('button', { name: 'View recharge records' }).click();

  await expect(page).toHaveURL(/\/recharge-records\/recharge$/);
  const record = page.locator('[data-record]').first();
  await expect(record).toContainText('₹6,000.00');
  await expect(record).toContainText('In progress');
  await expect(record).toContainText('Received ₹0.00');
  await expectAccessible(page);
  await snap(page, 'wallet-records-pending');
  // The sandbox provider settles it; the page refreshes itself while a record is in progress.
  await expect(record).toContainText('Completed', { timeout: 15_000 });
  await expect(record).toContainText('Received ₹6,000.00');

  await record.getByRole('link').click();
  await expect(page).toHaveURL(/\/account\/recharge-withdraw\/\d+\?type=recharge$/);
  await expect(page.getByText('Bank transfer')).toBeVisible();
  await expect(page.getByText('Completed').first()).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'wallet-record-detail');

  await page.goto('/account/recharge-withdraw/999999?type=withdraw');
  await expect(page.getByText('load failed, retry')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();

  await page.goto('/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹6,000.00');
  await page.getByRole('link', { name: 'Details' }).click();
  await expect(page).toHaveURL(/\/account\/changes$/);
  const bill = page.locator('[data-bill="recharge"]');
  await expect(bill).toContainText('Recharge');
  await expect(bill).toContainText('+₹6,000.00');
  await expect(bill).toContainText('Balance ₹6,000.00');
  await expectAccessible(page);
  await snap(page, 'wallet-changes');
  await page.getByRole('tab', { name: 'Expense' }).click();
  await expect(page.getByText('No expenses yet')).toBeVisible();
  await page.getByRole('tab', { name: 'Income' }).click();
  await expect(page.locator('[data-bill="recharge"]')).toBeVisible();

  // The confirmation again, this time looked at closely.
  await page.goto('/recharge');
  await page.getByLabel('Bank transfer').check();
  await page.getByLabel('Recharge amount').fill('5000');
  await page.getByRole('button', { name: 'Submit recharge' }).click();
  await expect(page.getByRole('dialog', { name: 'Request submitted' })).toContainText('within 24 hours');
  await expectAccessible(page);
  await snap(page, 'wallet-recharge-done');
});

/**
 * ₹5,000 in the account, a transaction password (a card needs one) and a State Bank of
 * India card ending in 9012, all through the API.
 */
async function fundWithCard(page: Page, token: string): Promise<void> {
  await fund(page, token, 5000);
  await api(page, token, 'POST', '/stock/success/user/password/up', {
    type: 'transaction',
    is_first: true,
    fund_code_new: CODE,
  });
  await api(page, token, 'POST', '/stock/success/bank/add', {
    bank: 'State Bank of India',
    branch_bank: 'Fort, Mumbai',
    bank_card: '123456789012',
    bank_user: 'Asha Rao',
    ifsc: 'SBIN0000300',
    stock_password: CODE,
  });
}

test('withdraw: no card, transaction password, held payout to a new card, operator releases it', async ({
  page,
}) => {
  const { token } = await freshUser(page);
  await page.goto('/withdraw');
  await expect(page.getByText('No bank cards available')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'wallet-withdraw-empty');
  await page.getByRole('button', { name: 'Add bank card' }).click();
  await expect(page).toHaveURL(/\/settings\/bank-cards$/);

  await fundWithCard(page, token);

  await page.goto('/withdraw');
  // The only card is chosen for the user.
  await expect(page.getByLabel(/State Bank of India/)).toBeChecked();
  // Card numbers are masked one way on every screen: "•••• 9012".
  await expect(page.getByLabel(/State Bank of India/)).toHaveAccessibleName(/Card ending in 9012/);
  await expect(page.getByText('•••• 9012', { exact: true })).toBeVisible();
  await expect(page.getByTestId('available-balance')).toHaveText('₹5,000.00');
  const amount = page.getByLabel('Withdrawal amount');
  const submit = page.getByRole('button', { name: 'Withdraw', exact: true });
  await expect(submit).toBeDisabled();
  await amount.fill('5');
  await expect(page.getByText('The minimum withdrawal amount is ₹100').first()).toBeVisible();
  await expect(submit).toBeDisabled();
  await amount.fill('99');
  await expect(submit).toBeDisabled();
  await amount.fill('5001');
  await expect(page.getByText('Insufficient funds')).toBeVisible();
  await expect(submit).toBeDisabled();
  await amount.fill('7x00');
  await expect(amount).toHaveValue('700');
  await expect(submit).toBeEnabled();
  await expectAccessible(page);
  await snap(page, 'wallet-withdraw');
  await submit.click();

  // The session alone is not enough: the transaction password, and a wrong one moves nothing.
  const ask = page.getByRole('dialog', { name: 'Enter transaction password' });
  await expect(ask).toContainText('Confirm the withdrawal of ₹700 with your transaction password.');
  await ask.getByLabel('Transaction password').fill('000000');
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(ask.getByText('Incorrect password')).toBeVisible();
  await expect(ask.getByLabel('Transaction password')).toHaveValue('');
  await expectAccessible(page);
  await snap(page, 'wallet-withdraw-code');
  await ask.getByLabel('Transaction password').fill(CODE);
  await ask.getByRole('button', { name: 'Confirm' }).click();

  // The card was added just now: the payout waits for the operator, and the record says why.
  await expect(page).toHaveURL(/\/withdraw-records$/);
  await expect(page.getByRole('tab', { name: 'Withdraw' })).toHaveAttribute('aria-selected', 'true');
  const record = page.locator('[data-record]').first();
  await expect(record).toContainText('Withdrawal ₹700.00');
  await expect(record).toContainText('In progress');
  await expect(record.locator('[data-hold="wallet.hold.newCard"]')).toContainText(
    'the bank card was added or changed in the last 24 hours',
  );
  await snap(page, 'wallet-withdraw-held');
  await record.getByRole('link').click();
  await expect(page).toHaveURL(/type=withdraw$/);
  await expect(page.getByText('•••• 9012', { exact: true })).toBeVisible();
  await expect(page.getByText(/State Bank of India/)).toBeVisible();
  await expect(page.locator('[data-hold]')).toContainText('Held for review');
  const heldId = new URL(page.url()).pathname.split('/').pop()!;
  // The sandbox's own delay passes and nothing happens: only the operator moves it on.
  const pending = JSON.parse(ops('pending')) as { withdrawals: Array<{ id: number; held: string | null }> };
  expect(pending.withdrawals.find((w) => String(w.id) === heldId)?.held).toBe('wallet.hold.newCard');
  ops('withdraw:release', heldId);
  await page.goto('/withdraw-records');
  await expect(page.locator(`[data-record="${heldId}"]`)).toContainText('Completed', { timeout: 15_000 });
  await expect(page.locator(`[data-record="${heldId}"] [data-hold]`)).toHaveCount(0);

  await page.goto('/account');
  await expect(page.getByTestId('available-balance')).toHaveText('₹4,300.00');
  await page.goto('/account/changes?tab=expense');
  const bill = page.locator('[data-bill="withdraw"]');
  await expect(bill).toContainText('Withdrawal');
  await expect(bill).toContainText('-₹700.00');
  await expect(bill).toContainText('Balance ₹4,300.00');
});

test('withdraw: a payout the provider declines comes back as a refund; offline, nothing moves', async ({
  page,
}) => {
  const { token } = await freshUser(page);
  await fundWithCard(page, token);
  // A second card, one the sandbox provider declines: held as new, then released, and the money
  // comes back as a refund.
  await api(page, token, 'POST', '/stock/success/bank/add', {
    bank: 'HDFC Bank',
    branch_bank: 'Andheri, Mumbai',
    bank_card: '500100020002',
    bank_user: 'Asha Rao',
    ifsc: 'HDFC0000240',
    stock_password: CODE,
  });
  await page.goto('/withdraw');
  await page.getByLabel('Withdrawal amount').fill('300');
  // Two cards: nothing is chosen for the user.
  await expect(page.getByRole('button', { name: 'Withdraw', exact: true })).toBeDisabled();
  await page.getByLabel(/HDFC Bank/).check();
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Enter transaction password' });
  await ask.getByLabel('Transaction password').fill(CODE);
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/withdraw-records$/);
  const declined = page.locator('[data-record]').first();
  await expect(declined).toContainText('Withdrawal ₹300.00');
  await expect(declined.locator('[data-hold]')).toBeVisible();
  ops('withdraw:release', (await declined.getAttribute('data-record'))!);
  await expect(declined).toContainText('Failed', { timeout: 15_000 });
  await expect(declined).toContainText('Received ₹0.00');
  await page.goto('/account/changes?tab=income');
  await expect(page.locator('[data-bill="withdrawRefund"]')).toContainText('Withdrawal refund');
  await expect(page.locator('[data-bill="withdrawRefund"]')).toContainText('+₹300.00');
  await expect(page.locator('[data-bill="withdrawRefund"]')).toContainText('Balance ₹5,000.00');

  // Money never moves offline: the button says why.
  await page.goto('/withdraw');
  await page.getByLabel('Withdrawal amount').fill('200');
  await page.context().setOffline(true);
  await expect(page.getByRole('button', { name: 'Withdraw', exact: true })).toBeDisabled();
  await expect(page.getByText('Unavailable offline')).toBeVisible();
  // The balance shown is labelled as last known, with its time.
  await expect(page.locator('form [data-stale]')).toContainText('Last known');
  await page.context().setOffline(false);
});

test('withdraw: a new user is led to set a transaction password, then the payout goes on', async ({
  page,
}) => {
  const { token } = await freshUser(page);
  await fund(page, token, 5000);
  // A card from before this change (SPEC's body): the user has no transaction password yet.
  const refused = await page.request.post('/api/stock/success/bank/add', {
    headers: { token },
    data: {
      bank: 'Axis Bank',
      branch_bank: 'Bandra, Mumbai',
      bank_card: '918273645501',
      bank_user: 'Asha Rao',
      ifsc: 'UTIB0000123',
    },
  });
  expect(await refused.json()).toEqual({ msg: 'no', data: 'errors.fundPasswordNotSet' });
  await page.goto('/settings/bank-cards');
  await page.getByRole('button', { name: 'Add bank card' }).click();
  const form = page.getByRole('dialog', { name: 'Add bank card' });
  await form.getByLabel('Bank name').fill('Axis Bank');
  await form.getByLabel('Branch').fill('Bandra, Mumbai');
  await form.getByLabel('Card number').fill('918273645501');
  await form.getByLabel('Account holder').fill('Asha Rao');
  await form.getByLabel('IFSC').fill('UTIB0000123');
  await form.getByRole('button', { name: 'Save' }).click();
  const setCode = page.getByRole('dialog', { name: 'Set transaction password' });
  await expect(setCode).toContainText('withdrawals and bank card changes');
  await setCode.getByLabel('Enter 6-digit transaction password').fill(CODE);
  await setCode.getByRole('button', { name: 'Next' }).click();
  await setCode.getByLabel('Enter it again to confirm').fill(CODE);
  await setCode.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bank card added')).toBeVisible();

  await page.goto('/withdraw');
  await page.getByLabel('Withdrawal amount').fill('150');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Enter transaction password' });
  await ask.getByLabel('Transaction password').fill(CODE);
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/withdraw-records$/);
  await expect(page.locator('[data-record]').first()).toContainText('Withdrawal ₹150.00');
});

test('loans: minimum, application, operator approval, records, repay', async ({ page }) => {
  const { token } = await freshUser(page);
  await page.goto('/loan');
  await expect(page.getByTestId('credit-score')).toHaveText('100');
  await expect(page.getByTestId('loan-due')).toHaveText('₹0.00');
  await expect(page.getByTestId('loan-remaining')).toHaveText('₹1,00,000.00');
  await snap(page, 'wallet-loan');

  await page.getByRole('button', { name: 'Apply for a loan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Apply for a loan' });
  const amount = dialog.getByLabel('Loan amount');
  const submit = dialog.getByRole('button', { name: 'Apply', exact: true });
  await expect(submit).toBeDisabled();
  await amount.fill('4a99');
  await expect(amount).toHaveValue('499');
  await expect(dialog.getByText('The minimum loan amount is 500')).toBeVisible();
  await expect(submit).toBeDisabled();
  await amount.fill('1500');
  await expect(submit).toBeEnabled();
  await expectAccessible(page);
  await snap(page, 'wallet-loan-apply');
  await submit.click();

  await expect(page).toHaveURL(/\/LoanApplication$/);
  await expect(page.getByTestId('application-state')).toHaveText('Applying');
  await expect(page.getByText('₹1,500.00')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'wallet-loan-application');

  const loans = await api<{ rows: Array<{ id: number }> }>(page, token, 'GET', '/stock/success/loans/list');
  ops('loan:approve', String(loans.rows[0]!.id));
  // The screen follows the decision by itself.
  await expect(page.getByTestId('application-state')).toHaveText('Unpaid', { timeout: 15_000 });

  await page.goto('/loan');
  await expect(page.getByTestId('loan-due')).toHaveText('₹1,500.00');
  await expect(page.getByTestId('loan-remaining')).toHaveText('₹98,500.00');
  await page.getByRole('link', { name: 'Loan records' }).first().click();
  await expect(page).toHaveURL(/\/loan-records$/);
  const row = page.locator('[data-loan]').first();
  await expect(row).toContainText('Loan ₹1,500.00');
  await expect(row).toContainText('Unpaid');
  await expectAccessible(page);
  await snap(page, 'wallet-loan-records');
  await row.getByRole('button', { name: 'Repay loan of ₹1,500.00' }).click();
  const confirm = page.getByRole('dialog', { name: 'Repay this loan?' });
  await expect(confirm).toContainText('₹1,500.00');
  await confirm.getByRole('button', { name: 'Repay' }).click();
  await expect(row).toContainText('Paid');
  await expect(row.getByRole('button')).toHaveCount(0);

  await page.goto('/account/changes');
  await expect(page.locator('[data-bill="borrow"]')).toContainText('Loan disbursed');
  await expect(page.locator('[data-bill="borrow"]')).toContainText('+₹1,500.00');
  await expect(page.locator('[data-bill="repay"]')).toContainText('Loan repayment');
  await expect(page.locator('[data-bill="repay"]')).toContainText('-₹1,500.00');
});

test('records page and bills page through real paging', async ({ page }) => {
  const { token } = await freshUser(page);
  // 11 recharges: one more than a page.
  for (let i = 0; i < 11; i++)
    await api(page, token, 'POST', '/stock/success/v2/recharge/add', { count: 5000 + i });
  await page.goto('/recharge-records');
  await expect(page.locator('[data-record]')).toHaveCount(10);
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.locator('[data-record]')).toHaveCount(1);
  await expect(page.locator('[data-record]').first()).toContainText('₹5,000.00');

  // Once settled they are 11 bills: the list loads the 11th as it scrolls to the end.
  await expect
    .poll(
      async () =>
        (await api<{ count: number }>(page, token, 'GET', '/stock/success/v2/bill?type=income')).count,
      {
        timeout: 15_000,
      },
    )
    .toBe(11);
  await page.goto('/account/changes');
  // The first page holds 10; when its end is already within 50 px of the view, the 11th follows at once.
  await expect.poll(() => page.locator('[data-bill]').count()).toBeGreaterThanOrEqual(10);
  // The next page loads as the end of the list scrolls into view.
  await page.locator('[data-bill]').last().scrollIntoViewIfNeeded();
  await expect(page.locator('[data-bill]')).toHaveCount(11);
  await expect(page.getByText('No more', { exact: true })).toBeVisible();
});
