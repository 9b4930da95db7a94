import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { BASE_URL } from './playwright.config';
import { expectAccessible, intoNseSession, login, newPhone, ops, snap, toast } from './support';

/*
 * IPO, block trading / QIP and funds against the real server. One user goes through them in order:
 * apply for an IPO and have the operator allot it; set a transaction password and buy a block
 * trade; look at QIP; buy a fund and let it mature by moving the server clock (the only clock
 * move of this file, and it lists the allotted IPO; then into an NSE session); then sell the
 * allotted shares. The e2e clock starts inside an NSE session (e2e/clock-start.ts) and no other
 * journey moves it while these run (watch-alerts.spec.ts is its own project after this one).
 * The steps share that user and the clock, so they run in order.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'secret123';
const TRADE_CODE = '246810';
const RECHARGE = 3_000_000;

/** "₹12,34,567.89" / "$21.12" / "-₹5.00" → minor units, exactly. */
function minorOf(text: string): number {
  const m = /(-?)[^\d-]*([\d,]+)\.(\d{2})/.exec(text.replace(/\s/g, ''));
  if (!m) throw new Error(`no amount in "${text}"`);
  const minor = Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]);
  return m[1] ? -minor : minor;
}

/** HALF_UP of a non-negative integer ratio, the project's rounding rule. */
function halfUp(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

function inr(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  return `${sign}₹${new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2 }).format(Math.abs(minor) / 100)}`;
}

let phone = '';
let api: APIRequestContext;
let token = '';

async function get<T>(url: string): Promise<T> {
  const res = await api.get(`/api${url}`, { headers: { token } });
  const body = await res.json();
  expect(body.msg, url).toBe('ok');
  return body.data as T;
}

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: BASE_URL });
  phone = newPhone();
  const reg = await api.post('/api/stock/user/reg', {
    data: { user: phone, password: PASSWORD, code: 'BOURSE26' },
  });
  expect((await reg.json()).msg).toBe('ok');
  const signIn = await (
    await api.post('/api/stock/user/login', { data: { user: phone, password: PASSWORD } })
  ).json();
  token = signIn.data.token;
  // Money comes in the way it does for everyone: a recharge the sandbox provider settles.
  const recharge = await api.post('/api/stock/success/v2/recharge/add', {
    headers: { token },
    data: { count: RECHARGE },
  });
  expect((await recharge.json()).msg).toBe('ok');
  await expect
    .poll(async () => (await get<{ money: string }>('/stock/success/v2/user/info')).money, {
      timeout: 20_000,
    })
    .toBe(`${RECHARGE}.00`);
});

test.afterAll(async () => {
  await api?.dispose();
});

async function signIn(page: Page): Promise<void> {
  await login(page, phone, PASSWORD);
}

async function availableMinor(page: Page): Promise<number> {
  const text = await page.getByTestId('available-balance').textContent();
  return minorOf(text ?? '');
}

interface IpoRow {
  id: number;
  symbol: string;
  company_name: string;
  status: string;
  issue_price: number;
  min: number;
  max: number;
  region: string;
}
let ipo: IpoRow;

test('IPO: apply in lots of 100 between min and max, the operator allots it', async ({ page }) => {
  const { rows } = await get<{ rows: IpoRow[] }>('/client/ipo');
  // Any Forthcoming issue lists within a week of the seed, so the fund step's clock move lists it.
  const open = rows.find((r) => r.status === 'Forthcoming' && r.region === 'IN' && r.max >= 1000);
  expect(open, 'a Forthcoming IPO from the seed').toBeDefined();
  ipo = open!;

  await signIn(page);
  await page.goto('/ipo');
  const card = page.getByRole('listitem').filter({ hasText: ipo.company_name });
  await expect(card.getByText('Open', { exact: true })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Closed' }).first()).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'ipo');

  await card.getByRole('button', { name: `Apply for ${ipo.company_name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Apply for ${ipo.company_name}` });
  const qty = dialog.getByLabel('Quantity (shares)');
  await expect(qty).toHaveValue('100');
  await expect(dialog.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();

  // Digits only, then clamped into whole lots between min and max when the field is left.
  await qty.fill('15a0');
  await expect(qty).toHaveValue('150');
  await qty.blur();
  await expect(qty).toHaveValue('100');
  await qty.fill('9999999');
  await qty.blur();
  await expect(qty).toHaveValue(String(ipo.max));
  await expect(dialog.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(qty).toHaveValue(String(ipo.max - 100));
  await qty.fill('250');
  await qty.blur();
  await expect(qty).toHaveValue('200');
  const frozen = Math.round(ipo.issue_price * 100) * 200;
  await expect(dialog.getByTestId('ipo-frozen')).toHaveText(inr(frozen));
  await expectAccessible(page);
  await snap(page, 'ipo-apply');

  const before = await availableMinor(page);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Purchase successful')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect.poll(() => availableMinor(page)).toBe(before - frozen);

  await page.goto('/ipo/orders');
  const application = page.getByRole('listitem').filter({ hasText: ipo.symbol.replace(/\.(NS|BO)$/, '') });
  await expect(application.getByText('Pending')).toBeVisible();
  // SPEC: the quantity shows only for status 0 or 2.
  await expect(application.getByText('Quantity')).toHaveCount(0);
  await expect(application.getByText(inr(frozen)).first()).toBeVisible();
  // Issue 30: the application's money is blocked in the balance until allotment, and says so.
  await expect(application.getByTestId('order-note')).toHaveText(`${inr(frozen)} blocked until allotment`);
  await expectAccessible(page);

  const allotted = JSON.parse(ops('ipo:allot', String(ipo.id)));
  expect(allotted).toMatchObject({ ipo: ipo.id, allotted: 1, refunded: 0 });

  await page.reload();
  await expect(application.getByText('Success')).toBeVisible();
  await expect(application.getByText('Quantity')).toBeVisible();
  await expect(application.getByText('200', { exact: true })).toBeVisible();
  await snap(page, 'ipo-orders');

  // Not listed yet: the sale is offered but the market has no price, and the dialog says why.
  await application.getByRole('button', { name: /^Sell / }).click();
  const sell = page.getByRole('dialog', { name: /^Sell / });
  await expect(sell.getByText('These shares are not listed yet and cannot be sold')).toBeVisible();
  await expect(sell.getByRole('button', { name: 'Sell all' })).toBeDisabled();
  await sell.getByRole('button', { name: 'Cancel' }).click();

  // The link from a row to stock detail.
  await expect(application.getByRole('link')).toHaveAttribute('href', new RegExp(`/stock/v2/${ipo.symbol}/`));
});

test('Block trading: transaction password, minimum, wrong code, fee charged exactly', async ({ page }) => {
  await signIn(page);
  await page.goto('/block-trading');
  await expect(page.getByRole('heading', { name: 'Block trading' })).toBeVisible();
  await expect(page.getByRole('listitem').first()).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'block-trading');

  await page.getByLabel('Search by code').fill('reliance');
  await expect(page.getByRole('listitem')).toHaveCount(1);
  const card = page.getByRole('listitem').filter({ hasText: 'RELIANCE' });
  // A block is a finite placement: what is left is shown, and that a lot is locked in.
  const left = Number(
    ((await card.getByText(/^Available: .* shares$/).textContent()) ?? '').replace(/\D/g, ''),
  );
  expect(left).toBeGreaterThanOrEqual(100);
  await expect(card.getByText('Sellable from the next session')).toBeVisible();
  await card.getByRole('button', { name: 'Buy RELIANCE' }).click();

  // No transaction password yet: its dialog comes first (two 6-digit entries).
  const pw = page.getByRole('dialog', { name: /transaction password/i });
  await expect(pw).toBeVisible();
  await pw.getByLabel('Enter 6-digit transaction password').fill(TRADE_CODE);
  await pw.getByRole('button', { name: 'Next' }).click();
  await pw.getByLabel('Enter it again to confirm').fill(TRADE_CODE);
  await pw.getByRole('button', { name: 'Confirm' }).click();
  await expect(pw).toBeHidden();

  const dialog = page.getByRole('dialog', { name: /Buy .*RELIANCE/ });
  await expect(dialog).toBeVisible();
  const qty = dialog.getByLabel('Quantity', { exact: true });
  await expect(qty).toHaveValue('100');
  await expectAccessible(page);
  await snap(page, 'block-buy');

  // Below the minimum: a toast with the minimum on leaving the field, the hint after 3 s.
  await qty.fill('50');
  await qty.blur();
  await expect(toast(page, 'The minimum buy quantity is 100')).toBeVisible();
  const hint = dialog
    .getByRole('alert')
    .filter({ hasText: 'Quantity cannot be less than the minimum trading quantity' });
  await expect(hint).toBeVisible({ timeout: 6000 });
  const confirm = dialog.getByRole('button', { name: 'Confirm' });
  await expect(confirm).toHaveAttribute('aria-disabled', 'true');
  // aria-disabled (not disabled): it still answers a tap with what is missing; Playwright would wait.
  await confirm.click({ force: true });
  await expect(toast(page, 'Please enter all required fields')).toBeVisible();
  await dialog.getByLabel('Transaction code').fill('135790');
  await confirm.click({ force: true });
  await expect(toast(page, 'Quantity cannot be less than the minimum trading quantity')).toBeVisible();

  // The minus button stops at the minimum.
  await qty.fill('300');
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(qty).toHaveValue('100');
  await dialog.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(qty).toHaveValue('100');
  await expect(hint).toBeHidden();

  // At the minimum with a wrong code: refused, nothing bought.
  const before = await availableMinor(page);
  await expect(confirm).toHaveAttribute('aria-disabled', 'false');
  await confirm.click();
  await expect(toast(page, 'Incorrect password')).toBeVisible();
  await expect(dialog.getByLabel('Transaction code')).toHaveValue('');
  expect(await availableMinor(page)).toBe(before);

  // The right code: bought at the block price, plus the 0.03 % fee, rounded HALF_UP. The dialog's
  // total is its price's; the server prices the lot when the order arrives (issue 30: the ask held
  // within 1 % of the live market, which moves), so the debit is the recorded price's.
  const priceMinor = minorOf((await dialog.getByTestId('block-price').textContent()) ?? '');
  const shownTotal = Number(halfUp(BigInt(priceMinor) * 100n * 10_003n, 10_000n));
  await expect(dialog.getByTestId('block-total')).toHaveText(inr(shownTotal));
  await dialog.getByLabel('Transaction code').fill(TRADE_CODE);
  await confirm.click();
  await expect(toast(page, 'Purchase successful')).toBeVisible();
  await expect(dialog).toBeHidden();
  const [lot] = (
    await (
      await api.post('/api/stock/success/deal/list', {
        headers: { token },
        data: { mold: 'bulk', status: 1 },
      })
    ).json()
  ).data.rows as Array<{ price: number; price_all: string }>;
  const expected = Number(halfUp(BigInt(Math.round(lot!.price * 100)) * 100n * 10_003n, 10_000n));
  expect(minorOf(lot!.price_all)).toBe(expected);
  // Within the price protection of what the dialog showed.
  expect(Math.abs(expected - shownTotal) * 100).toBeLessThanOrEqual(shownTotal);
  await expect.poll(() => availableMinor(page)).toBe(before - expected);

  await page.goto('/block-trading/orders');
  const tabs = page.getByRole('tablist');
  const row = page.getByRole('listitem').filter({ hasText: 'RELIANCE' });
  await expect(row.getByText('Success')).toBeVisible();
  await expect(row.getByText(inr(expected))).toBeVisible();
  // Locked in until the next session: the lot says when it can be sold, and offers no Sell yet.
  await expect(row.getByTestId('unlock-at')).toContainText('Sellable from');
  await expect(row.getByRole('button', { name: /^Sell/ })).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'block-orders');
  await tabs.getByRole('tab', { name: 'Failed' }).click();
  await expect(page.getByText('No orders yet')).toBeVisible();
  await tabs.getByRole('tab', { name: 'Success' }).click();
  await expect(row).toHaveCount(1);
});

test('QIP: the converted amount at the live USD rate the server decides; orders start empty', async ({
  page,
}) => {
  await signIn(page);
  // The server's one rate (server/trading/fx.ts): the simulator's live USDINR quote, not config's 20.
  const fx = (await (await page.request.get(`${BASE_URL}/api/v2/fx/usd`)).json()).data;
  expect(fx).toMatchObject({ unit: 'INR', source: 'live', fresh: true, symbol: 'USDINR=X' });
  expect(fx.rate).toBeGreaterThan(50);
  await page.goto('/qip');
  await expect(page.getByRole('heading', { name: 'QIP' })).toBeVisible();
  const line = page.getByTestId('usd-rate');
  await expect(line).toHaveAttribute('data-source', 'live');
  await expect(line).toHaveAttribute('data-fresh', 'true');
  await expect(line).toContainText(/^Rate: 1 USD = ₹\d{2,3}\.\d{2,4}Live market rate/);
  await expect(line.getByText('Rate: 1 USD = ₹20.00')).toHaveCount(0);
  const card = page.getByRole('listitem').filter({ hasText: 'AMD' });
  await expect(card).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'qip');

  await card.getByRole('button', { name: 'Buy AMD' }).click();
  const dialog = page.getByRole('dialog', { name: /Buy .*AMD/ });
  await expect(dialog.getByTestId('usd-rate')).toBeVisible();
  const total = minorOf((await dialog.getByTestId('block-total').textContent()) ?? '');
  const price = minorOf((await dialog.getByTestId('block-price').textContent()) ?? '');
  // $ price × 100 × 1.0003 in dollars.
  expect(total).toBe(Number(halfUp(BigInt(price) * 100n * 10_003n, 10_000n)));
  // In rupees: the value at the rate the dialog shows (both read from one moment of the page: the
  // rate is polled), HALF_UP once, then the 0.03 % fee on it.
  const [rateText, convertedText] = await dialog.evaluate((el) => [
    el.querySelector('[data-testid="usd-rate"]')?.textContent ?? '',
    el.querySelector('[data-testid="block-converted"]')?.textContent ?? '',
  ]);
  const m = /= ₹([\d,]+)\.(\d{2,4})/.exec(rateText);
  expect(m, rateText).not.toBeNull();
  const rateTicks = BigInt(m![1]!.replaceAll(',', '')) * 10_000n + BigInt(m![2]!.padEnd(4, '0'));
  const value = halfUp(BigInt(price) * 100n * rateTicks, 10_000n);
  expect(minorOf(convertedText)).toBe(Number(value + halfUp(value * 3n, 10_000n)));
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await snap(page, 'qip-buy-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The narrowest phone: nothing runs off the side.
  await page.setViewportSize({ width: 320, height: 640 });
  await snap(page, 'qip-320');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 390, height: 844 });

  await page.goto('/qip/orders');
  await expect(page.getByText('No orders yet')).toBeVisible();
  await expectAccessible(page);
});

test('Funds: buy, the button waits, the order matures with principal and profit', async ({ page }) => {
  await signIn(page);
  await page.goto('/fund-investment');
  const card = page.getByRole('listitem').filter({ hasText: 'Bourse Liquid Plus' });
  await expect(card.getByRole('progressbar')).toBeVisible();
  await expect(page.getByText('No more')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'funds');

  const buy = card.getByRole('button', { name: 'Buy Bourse Liquid Plus' });
  // Offline, money never moves: the button is disabled and says why.
  await page.context().setOffline(true);
  await expect(buy).toBeDisabled();
  await expect(card.getByText('Unavailable offline: money never moves without a connection.')).toBeVisible();
  await page.context().setOffline(false);
  await expect(buy).toBeEnabled();
  await buy.click();
  const confirm = page.getByRole('dialog', { name: 'Invest in Bourse Liquid Plus?' });
  await expect(confirm.getByText('7 days', { exact: true })).toBeVisible();
  // Issue 30: what maturity pays, per period and per year, and that it is paid automatically.
  await expect(confirm.getByText(/^₹[\d,.]+ · [\d.]+% \([\d.]+% p\.a\.\)$/)).toBeVisible();
  await expect(
    confirm.getByText(/^After 7 days your amount and this return are paid to your balance automatically/),
  ).toBeVisible();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Invest' }).click();
  await expect(buy).toBeDisabled();
  await expect(toast(page, 'Investment successful: Bourse Liquid Plus')).toBeVisible();
  await expect(buy).toBeEnabled();

  await page.getByRole('link', { name: 'My investments' }).click();
  await page.getByRole('tab', { name: 'Active' }).click();
  const order = page.getByRole('listitem').filter({ hasText: 'Bourse Liquid Plus' });
  await expect(order.getByText('Active', { exact: true })).toBeVisible();
  await expect(order.getByText('7 days')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'fund-orders');

  // The one clock move of this file: past the 7-day period (and past the IPO's listing date).
  ops('clock:advance', '8d');
  // Into a session if that left the market closed: the IPO's shares are sold below, and a lot
  // sells only in session (issue 30).
  await intoNseSession(api);
  // The server follows the clock within a second and the maturity job runs every second; wait for
  // the server's answer first, then look once (a count right after a reload races the render).
  await expect
    .poll(
      async () => (await get<{ rows: unknown[] }>('/stock/success/fund/orders?status=completed')).rows.length,
      {
        timeout: 30_000,
      },
    )
    .toBe(1);
  await page.getByRole('tab', { name: 'Completed' }).click();
  const done = page.getByRole('listitem').filter({ hasText: 'Bourse Liquid Plus' });
  await expect(done.getByText('Completed', { exact: true })).toBeVisible();
  const { rows } = await get<{ rows: Array<{ amount: string; profit: string; expected_return: number }> }>(
    '/stock/success/fund/orders?status=completed',
  );
  expect(rows).toHaveLength(1);
  const profit = Number(halfUp(1_000_000n * BigInt(Math.round(rows[0]!.expected_return * 100)), 10_000n));
  expect(rows[0]!.profit).toBe((profit / 100).toFixed(2));
  await expect(done.getByText(`+${inr(profit)}`)).toBeVisible();

  // The bill list (the Account changes screen is another engineer's): principal and profit came back.
  const bill = await get<{ rows: Array<{ reason: string; amount: string }> }>(
    '/stock/success/v2/bill?type=income',
  );
  expect(bill.rows.find((r) => r.reason === 'principal_returned')?.amount).toBe('10000.00');
  expect(bill.rows.find((r) => r.reason === 'fund_project_profit')?.amount).toBe((profit / 100).toFixed(2));
});

test('IPO: allotted shares sell once listed, with their profit/loss in the sales tab', async ({ page }) => {
  await signIn(page);
  await page.goto('/ipo/orders');
  const code = ipo.symbol.replace(/\.(NS|BO)$/, '');
  const application = page.getByRole('listitem').filter({ hasText: code });
  await application.getByRole('button', { name: `Sell ${code}` }).click();
  const dialog = page.getByRole('dialog', { name: `Sell ${code}` });
  await expect(dialog.getByTestId('sell-price')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'ipo-sell');
  await dialog.getByRole('button', { name: 'Sell all' }).click();
  await expect(toast(page, 'Sold successfully')).toBeVisible();

  await expect(page.getByRole('tab', { name: 'Sales Record' })).toHaveAttribute('aria-selected', 'true');
  const sale = page.getByRole('listitem').filter({ hasText: code });
  await expect(sale.getByText('Sell', { exact: true })).toBeVisible();
  await expect(sale.getByText('Success')).toBeVisible();
  const value = async (label: string, scope: Locator) =>
    (await scope
      .locator('div', { has: page.getByText(label, { exact: true }) })
      .last()
      .locator('dd')
      .textContent()) ?? '';
  const price = minorOf(await value('Price', sale));
  const sellPrice = minorOf(await value('Sell price', sale));
  const profit = minorOf(await value('Profit/loss', sale));
  expect(profit).toBe((sellPrice - price) * 200);
  await expectAccessible(page);
  await snap(page, 'ipo-sales');
});
