import type { APIRequestContext } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { serverNow } from './clock-start';
import { expect, test, workerServer } from './fixtures';
import { enrol } from './staff';
import {
  advanceServerClockTo,
  fundedUserViaApi,
  newPhone,
  ops,
  serverClockNow,
  snap,
  toast,
} from './support';

/**
 * A customer who lost their phone: two people in the back office reset their second factor, and the
 * customer, in a browser of their own, sees what the reset means — every session ended, a password
 * alone signs in, a notice in the inbox, the authenticator shown as off, and a withdrawal held a day
 * for a check. The clock moves a day first, so the authenticator's own enrolment (itself a security
 * change) no longer holds anything: a withdrawal just before the reset is not held, one just after is.
 */
test.use({ ownServer: 'factor-reset' });

const PASSWORD = 'secret123';
const CODE = '246810';

async function call(api: APIRequestContext, token: string, path: string, data?: object) {
  const headers = { token, 'Idempotency-Key': crypto.randomUUID() };
  const res = data
    ? await api.post(`/api${path}`, { headers, data })
    : await api.get(`/api${path}`, { headers });
  const body = await res.json();
  expect(body.msg, `${path}: ${JSON.stringify(body)}`).toBe('ok');
  return body.data;
}

test('a second-factor reset by two people reaches the customer: sessions end, a notice, withdrawals held a day', async ({
  page,
  browser,
}) => {
  const phone = newPhone();
  const token = await fundedUserViaApi(page.request, phone, PASSWORD, 5000);
  await call(page.request, token, '/stock/success/user/password/up', {
    type: 'transaction',
    is_first: true,
    fund_code_new: CODE,
  });
  const card = await call(page.request, token, '/stock/success/bank/add', {
    bank: 'State Bank of India',
    branch_bank: 'Fort, Mumbai',
    bank_card: '123456789012',
    bank_user: 'Asha Rao',
    ifsc: 'SBIN0000300',
    stock_password: CODE,
  });
  const origin = workerServer().url;
  const { secret } = await call(page.request, token, '/stock/success/v2/totp/setup', {});
  const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  await call(page.request, token, '/stock/success/v2/totp/confirm', {
    code: app.generate({ timestamp: await serverNow(origin) }),
  });

  // A day later the new card and the new authenticator hold nothing: a withdrawal goes to the rail.
  await advanceServerClockTo(page.request, serverClockNow() + 25 * 3600_000);
  // Each code is good once: the step-up takes this half-minute's, the sign-in below the next one's.
  await call(page.request, token, '/stock/success/v2/security/step-up', {
    code: app.generate({ timestamp: await serverNow(origin) }),
  });
  const before = await call(page.request, token, '/stock/success/money/access', {
    bank_id: card.id,
    count: 200,
    stock_password: CODE,
  });
  expect(before.hold).toBeNull();

  // Signed in on the phone with password and code.
  await page.goto('/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page
    .getByLabel('Code from your authenticator app')
    .fill(app.generate({ timestamp: (await serverNow(origin)) + 30_000 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);

  const maker = await enrol(browser, 'payments', 'Dev Patel');
  await maker.page.getByLabel(/^Find a customer by phone/).fill(phone);
  await maker.page.getByRole('list', { name: 'Customers found' }).getByRole('link').first().click();
  const account = maker.page.getByRole('region', { name: 'Account' });
  await expect(account).toContainText('authenticator app');
  await maker.page.getByRole('button', { name: 'Reset second factor…' }).click();
  const ask = maker.page.getByRole('dialog', { name: /^Ask for: second-factor reset of / });
  await expect(ask.getByTestId('control-effect')).toContainText('Withdrawals are held for 24 hours');
  await ask.getByLabel(/^Reason/).fill('Phone lost; identity checked by video call');
  await ask.getByRole('button', { name: 'Ask for the second approval' }).click();
  await expect(maker.page.getByTestId('account-request')).toContainText('awaits 2nd approval');
  await expect(maker.page.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  // Done with the maker's desk: closed now, its polls cost the rest of the journey CPU for nothing.
  await maker.page.context().close();
  // Nothing has changed yet: the customer is still signed in with their factor.
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/settings$/);

  const checker = await enrol(browser, 'approver', 'Mira Shah');
  const item = checker.page.getByRole('row', { name: new RegExp(`awaiting a second approval.*${phone}`) });
  await item.getByRole('link').first().click();
  await checker.page.getByRole('button', { name: 'Approve second-factor reset' }).click();
  const approve = checker.page.getByRole('dialog', { name: /^Approve: second-factor reset of / });
  await expect(approve).toContainText('Phone lost; identity checked by video call');
  await snap(checker.page, 'ops-factor-reset-approve');
  await approve.getByRole('button', { name: 'Approve: second-factor reset now' }).click();
  await expect(checker.page.getByRole('region', { name: 'Account' })).not.toContainText('authenticator app');
  await checker.page.context().close();

  // The phone's session is over; the password alone signs in now.
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Phone number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
  // Told at once, whichever screen comes first, until they say they know.
  const changed = page.getByRole('dialog', { name: 'Your security changed' });
  await expect(changed.getByTestId('security-change').first()).toContainText(
    'Your second factor was reset by support',
  );
  await expect(changed).toContainText('Withdrawals wait a day for a check');
  await snap(page, 'factor-reset-security-changed');
  await changed.getByRole('button', { name: 'It was me' }).click();
  await page.goto('/notifications');
  const notice = page.getByRole('button', { name: /Your second factor was reset by Bourse support/ });
  await expect(notice).toContainText('Withdrawals wait a day for a check');
  await snap(page, 'factor-reset-notice');
  await page.goto('/settings/security');
  await expect(page.getByText('Codes from an app').locator('..')).toContainText('Off');

  // A withdrawal now waits for the team, and says why.
  await page.goto('/withdraw');
  await page.getByLabel('Withdrawal amount').fill('300');
  await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
  const password = page.getByRole('dialog', { name: 'Enter transaction password' });
  await password.getByLabel('Transaction password').fill(CODE);
  await password.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/withdraw-records$/);
  // Never "successful" while it waits: the toast says what the record says.
  await expect(toast(page, 'Withdrawal of ₹300.00 requested')).toContainText(
    'our team checks it before it is sent',
  );
  const record = page.locator('[data-record]').first();
  await expect(record).toContainText('Withdrawal ₹300.00');
  await expect(record.locator('[data-hold="wallet.hold.securityChange"]')).toContainText(
    'your sign-in security changed in the last 24 hours',
  );
  await snap(page, 'factor-reset-withdraw-held');

  expect(ops('ledger:audit')).toMatch(/ledger audit: OK/);
  expect(ops('audit:verify')).toMatch(/chain unbroken/);
});
