import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  cutOffTexts,
  expectAccessible,
  expectPriceNotLive,
  goOffline,
  goOnline,
  login,
  newPhone,
  registerViaApi,
  reviewBuy,
  snap,
  toast,
} from './support';

/*
 * Watchlist, holdings, stock trading, records and the trading entry against the real server.
 * The trading journey belongs to one funded user (a recharge the sandbox settles) and runs in order:
 * buy 10, see them in holdings and records, sell them and see the realised P/L; then a limit order
 * that rests pending and is cancelled. Every other test makes its own user.
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'secret123';
const RECHARGE = 100_000;
let api: APIRequestContext;
let phone = '';

async function tokenFor(user: string, password = PASSWORD): Promise<string> {
  const res = await api.post('/api/stock/user/login', { data: { user, password } });
  return (await res.json()).data.token as string;
}

/** "₹12,34,567.89" / "-₹5.00" → minor units, exactly. */
function minorOf(text: string): number {
  const m = /(-?)[^\d-]*([\d,]+)\.(\d{2})/.exec(text.replace(/\s/g, ''));
  if (!m) throw new Error(`no amount in "${text}"`);
  const minor = Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]);
  return m[1] ? -minor : minor;
}

/** Nothing wider than the phone (SPEC: 320–430 px) at the narrowest width. */
async function fitsNarrowPhone(page: Page, name: string): Promise<void> {
  expect((await cutOffTexts(page)).cut).toEqual([]);
  await page.setViewportSize({ width: 320, height: 700 });
  // A 320 px phone opens the page at its width (a resize kept the bar as wide as the 390 px one).
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  expect((await cutOffTexts(page)).cut).toEqual([]);
  await snap(page, `${name}-320`);
  await page.setViewportSize({ width: 390, height: 844 });
}

test.beforeAll(async ({ playwright, server }) => {
  api = await playwright.request.newContext({ baseURL: server.url });
  phone = newPhone();
  const reg = await api.post('/api/stock/user/reg', {
    data: { user: phone, password: PASSWORD, code: 'BOURSE26' },
  });
  expect((await reg.json()).msg).toBe('ok');
  const token = await tokenFor(phone);
  const recharge = await api.post('/api/stock/success/v2/recharge/add', {
    headers: { token },
    data: { count: RECHARGE },
  });
  expect((await recharge.json()).msg).toBe('ok');
  await expect
    .poll(
      async () => {
        const res = await api.get('/api/stock/success/v2/user/info', { headers: { token } });
        return (await res.json()).data.money;
      },
      { timeout: 20_000 },
    )
    .toBe(`${RECHARGE}.00`);
});

test.afterAll(async () => {
  await api?.dispose();
});

test('trading entry resolves a display code and the buy screen checks every quantity rule', async ({
  page,
  context,
}) => {
  await login(page, phone, PASSWORD, '/trading/RELIANCE');
  await expect(page).toHaveURL(/\/stock\/trading\/RELIANCE\.NS\/IN\//);
  await expect(page.getByRole('tab', { name: 'Buy', selected: true })).toBeVisible();
  await expect(page.getByTestId('trade-price')).toHaveText(/₹[\d,]+\.\d{2}/);
  await expect(page.getByText('High', { exact: true })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Half position', checked: true })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'trading-buy');

  const qty = page.getByRole('textbox', { name: 'Quantity' });
  const buy = page.getByRole('button', { name: 'Buy RELIANCE' });
  await expect(qty).toHaveValue('1');
  await expect(page.getByRole('button', { name: 'Decrease quantity' })).toBeDisabled();

  await qty.fill('0');
  await expect(page.getByText('Quantity cannot be less than 1')).toBeVisible();
  await expect(buy).toBeDisabled();
  await expect(buy).toHaveAccessibleDescription('Enter a quantity of at least 1');
  // An empty field is not an error yet: the button says what to do.
  await qty.fill('');
  await expect(buy).toBeDisabled();
  await expect(buy).toHaveAccessibleDescription('Enter a quantity');
  await expect(page.getByText('Quantity cannot be less than 1')).toBeHidden();
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(qty).toHaveValue('1');

  await qty.fill('51');
  await expect(page.getByText('Cannot exceed 50 for half position')).toBeVisible();
  await expect(buy).toBeDisabled();
  await expect(buy).toHaveAccessibleDescription(
    'Over 50 for a half position: lower the quantity or choose Full position',
  );
  await snap(page, 'trading-invalid');
  await page.getByRole('radio', { name: 'Full position' }).click();
  await expect(page.getByText('Cannot exceed 50 for half position')).toBeHidden();
  await expect(buy).toBeEnabled();
  // The server's figures for this order have arrived: what the balance affords is known.
  await expect(page.getByTestId('trade-estimate')).toHaveText(/₹[\d,]+\.\d{2}/);
  await qty.fill('101');
  await expect(page.getByText('Cannot exceed 100 for full position')).toBeVisible();
  // The maximum says why: full position (100) or what ₹1,00,000 affords — the smaller wins.
  const maxHint = page.getByTestId('trade-max');
  await expect(maxHint).toHaveText(/^Max \d+ · (full position|what your balance affords)$/);
  const max = Number(/Max (\d+)/.exec((await maxHint.textContent()) ?? '')?.[1]);
  expect(max).toBeLessThanOrEqual(100);
  await page.getByRole('button', { name: 'Decrease quantity' }).click();
  await expect(qty).toHaveValue(String(max));
  await expect(page.getByRole('button', { name: 'Increase quantity' })).toBeDisabled();

  // Nothing held: the Sell tab is quietly off, and nothing on the screen is red.
  await expect(page.getByRole('tab', { name: 'Sell' })).toBeDisabled();
  await expect(page.getByText('Not enough shares available to sell')).toBeHidden();
  await expect(page.getByText('You hold no RELIANCE')).toBeVisible();
  await fitsNarrowPhone(page, 'trading');

  // Offline: money never moves, the button says why, and the price is marked as last known.
  await page.getByRole('tab', { name: 'Buy' }).click();
  await qty.fill('1');
  await goOffline(context);
  await expect(buy).toBeDisabled();
  await expect(page.getByText('Unavailable offline: money never moves without a connection.')).toBeVisible();
  await expectPriceNotLive(page.getByRole('region', { name: 'Price' }));
  await goOnline(context);
  await expect(buy).toBeEnabled();
});

test('buy 10, see them in holdings and records, sell them and see the P/L', async ({ page }) => {
  await login(page, phone, PASSWORD);
  // The review sheet: the order, the server's charges one by one, and the funds beside the need.
  const { estimate, confirm, review } = await reviewBuy(page, 'TCS', 10);
  expect(minorOf((await estimate.textContent()) ?? '')).toBeGreaterThan(0);
  await expect(review.getByText('₹1,00,000.00')).toBeVisible();
  const net = minorOf((await confirm.getByTestId('review-net').textContent()) ?? '');
  await expectAccessible(page);
  await snap(page, 'trading-review');
  await confirm.getByRole('button', { name: 'Confirm buy' }).click();

  const filled = page.getByRole('dialog', { name: 'Order filled' });
  await expect(filled).toBeVisible();
  const result = filled.getByTestId('trade-result');
  await expect(filled.getByTestId('result-status')).toHaveText('Success');
  await expect(result.getByTestId('result-filled')).toHaveText('10 of 10');
  await expect(result.getByText('Charges')).toBeVisible();
  // What it paid is the server's: the contract note's net below.
  await snap(page, 'trading-filled');
  // The contract note: every figure of the fill, and its net is what the order cost.
  await filled.getByRole('button', { name: 'Contract note' }).click();
  const note = page.getByRole('dialog', { name: 'Contract note' }).getByTestId('contract-note');
  await expect(note.getByText('Stamp duty')).toBeVisible();
  await expect(note.getByText('NSE', { exact: true })).toBeVisible();
  const paid = minorOf((await note.getByText('Net amount paid').locator('..').textContent()) ?? '');
  // Filled at the server's quote of that moment: within 1 % of the reviewed estimate.
  expect(Math.abs(paid - net)).toBeLessThanOrEqual(Math.ceil(net / 100));
  await expectAccessible(page);
  await snap(page, 'trading-contract-note');
  await page.getByRole('dialog', { name: 'Contract note' }).getByRole('button', { name: 'Done' }).click();
  await filled.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('trade-position')).toContainText('10');

  // Holdings: the position valued by the server; tapping it opens the sell tab.
  await page.goto('/trade');
  await expect(page.getByRole('radio', { name: 'Stocks', checked: true })).toBeVisible();
  const row = page.getByRole('link', { name: /^Tata Consultancy Services TCS 10 / });
  await expect(row).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'holdings');
  await fitsNarrowPhone(page, 'holdings');
  await row.click();
  await expect(page).toHaveURL(/\/stock\/trading\/TCS\.NS\/.*type=sell/);
  await expect(page.getByRole('tab', { name: 'Sell', selected: true })).toBeVisible();
  await expect(page.getByText('Available to sell: 10')).toBeVisible();

  await page.getByRole('textbox', { name: 'Quantity' }).fill('10');
  await page.getByRole('button', { name: 'Sell TCS' }).click();
  await page.getByRole('dialog', { name: 'Sell TCS?' }).getByRole('button', { name: 'Confirm sell' }).click();
  const sold = page.getByRole('dialog', { name: 'Order filled' });
  await expect(sold.getByText('Profit/loss')).toBeVisible();
  await sold.getByRole('link', { name: 'View orders' }).click();

  // Records: both orders; the sell carries its realised P/L.
  await expect(page).toHaveURL(/\/records$/);
  const cards = page.locator('[data-order]');
  await expect(cards).toHaveCount(2);
  // One row each: side, code, type, product, validity, what filled and the server's status.
  const sell = cards.filter({ hasText: 'Sell' });
  await expect(sell.getByTestId('order-status')).toHaveText('Success');
  await expect(sell.getByTestId('order-product')).toHaveText('Delivery');
  await expect(sell.getByTestId('order-filled')).toHaveText('10/10');
  await expect(sell.getByText('TCS', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'records');
  // Its detail: the sale's figures and P/L, placed at the exchange's time.
  await sell.getByRole('button').click();
  const detail = page.getByRole('dialog', { name: 'Sell TCS' });
  await expect(detail.getByText('Sell price')).toBeVisible();
  await expect(detail.getByText('Profit/loss')).toBeVisible();
  await expect(detail.getByTestId('detail-placed')).toHaveText(/IST$/);
  await expect(detail.getByRole('button', { name: 'Contract note for TCS' })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'records-detail');
  await detail.getByRole('button', { name: 'Done' }).click();
  await fitsNarrowPhone(page, 'records');
  // Five tabs do not fit 390 px: the strip shows that more follow, and the chosen one scrolls into view.
  const strip = page.locator('[data-more]').filter({ has: page.getByRole('tablist') });
  await expect(strip).toHaveAttribute('data-more', 'end');
  await page.getByRole('tab', { name: 'Success' }).click();
  await expect(cards).toHaveCount(2);
  await page.getByRole('tab', { name: 'Expired' }).click();
  await expect(page.getByText('No expired orders')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Expired' })).toBeInViewport({ ratio: 1 });
  await expect(strip).toHaveAttribute('data-more', /start|both/);

  await page.goto('/trade');
  await expect(page.getByText('You hold no stocks')).toBeVisible();
});

test('a limit order below the market (inside the limit band) rests pending and can be cancelled', async ({
  page,
}) => {
  await login(page, phone, PASSWORD, '/trading/INFY');
  await expect(page.getByTestId('trade-price')).toHaveText(/₹[\d,]+\.\d{2}/);
  const price = await page.getByTestId('trade-price').textContent();
  // 8 % below the market: inside the server's limit band (LIMIT_BAND_BPS, 10 %), far enough not to fill.
  const limit = (Math.floor((minorOf(price ?? '') * 92) / 100) / 100).toFixed(2);
  await page.getByRole('radio', { name: 'Limit' }).click();
  const limitField = page.getByLabel('Limit price');
  await limitField.fill('0');
  await expect(page.getByText('Please enter a valid price')).toBeVisible();
  await limitField.fill(limit);
  await page.getByRole('button', { name: 'Buy INFY' }).click();
  await page.getByRole('dialog', { name: 'Buy INFY?' }).getByRole('button', { name: 'Confirm buy' }).click();
  const placed = page.getByRole('dialog', { name: 'Order placed' });
  await expect(placed.getByText('Pending')).toBeVisible();
  await placed.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: 'Pending orders' })).toBeVisible();

  await page.goto('/records?tab=pending');
  const card = page.locator('[data-order]').first();
  await expect(card.getByTestId('order-type')).toHaveText('Limit');
  await expect(card.getByTestId('order-filled')).toHaveText('0/1');
  await snap(page, 'records-types');
  await card.getByRole('button').click();
  const detail = page.getByRole('dialog', { name: 'Buy INFY' });
  await expect(detail.getByText('Limit price')).toBeVisible();
  const reserved = minorOf((await detail.getByText('Reserved').locator('..').textContent()) ?? '');

  // Modify: one more unit; the sheet shows what is reserved now, after, and the difference.
  await detail.getByRole('button', { name: 'Modify order for INFY' }).click();
  const sheet = page.getByRole('dialog', { name: 'Modify order · INFY' });
  await sheet.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(sheet.getByText('To reserve in addition')).toBeVisible();
  await expect(sheet.getByTestId('modify-figures')).toContainText(/Reserved after the change₹[\d,]+\.\d{2}/);
  await expectAccessible(page);
  await snap(page, 'records-modify');
  await sheet.getByRole('button', { name: 'Modify order' }).click();
  await expect(toast(page, 'Order modified')).toBeVisible();
  await expect(card.getByTestId('order-filled')).toHaveText('0/2');
  await card.getByRole('button').click();
  await expect
    .poll(async () => minorOf((await detail.getByText('Reserved').locator('..').textContent()) ?? ''))
    .toBeGreaterThan(reserved);
  await detail.getByRole('button', { name: 'Cancel order for INFY' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel order' }).click();
  await expect(toast(page, 'Order cancelled')).toBeVisible();
  await expect(page.getByText('No pending orders')).toBeVisible();
  await page.getByRole('tab', { name: 'Cancelled' }).click();
  await expect(page.locator('[data-order]').first().getByTestId('order-status')).toHaveText('Cancelled');
});

test('a stop-loss-market buy is reviewed with its trigger, waits pending with it, and can be cancelled', async ({
  page,
}) => {
  await login(page, phone, PASSWORD, '/trading/HDFCBANK');
  await expect(page.getByTestId('trade-price')).toHaveText(/₹[\d,]+\.\d{2}/);
  const price = await page.getByTestId('trade-price').textContent();
  // 8 % above the market: a buy stop waits for a rise that far (inside the 10 % band).
  const trigger = (Math.ceil((minorOf(price ?? '') * 108) / 100) / 100).toFixed(2);
  await page.getByRole('radio', { name: 'SL-M' }).click();
  await page.getByLabel('Trigger price').fill(trigger);
  await page.getByRole('button', { name: 'Buy HDFCBANK' }).click();
  const review = page.getByRole('dialog', { name: 'Buy HDFCBANK?' });
  await expect(review.getByText('SL-M', { exact: true })).toBeVisible();
  await expect(review.getByText('Trigger price')).toBeVisible();
  await expect(review.getByText('Stamp duty')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'trading-stop-review');
  await review.getByRole('button', { name: 'Confirm buy' }).click();
  const placed = page.getByRole('dialog', { name: 'Order placed' });
  await expect(placed.getByText('Pending')).toBeVisible();
  await placed.getByRole('button', { name: 'Done' }).click();
  const pending = page.getByRole('listitem').filter({ hasText: 'SL-M · trigger' });
  await expect(pending).toBeVisible();
  await snap(page, 'trading-stop-pending');
  await pending.getByRole('button', { name: 'Cancel order' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this order?' })
    .getByRole('button', { name: 'Cancel order' })
    .click();
  await expect(toast(page, 'Order cancelled')).toBeVisible();
  await expect(pending).toBeHidden();
});

test('a GTT buy on a dip is reviewed with its validity, survives a reload pending, and can be cancelled', async ({
  page,
}) => {
  await login(page, phone, PASSWORD, '/trading/TCS');
  await expect(page.getByTestId('trade-price')).toHaveText(/₹[\d,]+\.\d{2}/);
  const price = await page.getByTestId('trade-price').textContent();
  // 6 % below the market: a dip the GTT waits for (inside the 10 % band), its limit the trigger.
  const trigger = (Math.floor((minorOf(price ?? '') * 94) / 100) / 100).toFixed(2);
  await page.getByRole('radio', { name: 'GTT' }).click();
  await page.getByLabel('Trigger price').fill(trigger);
  await page.getByLabel('Limit price').fill(trigger);
  await page.getByLabel('Valid for (days)').fill('400');
  await expect(page.getByText('A GTT order is valid for 1 to 365 days')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy TCS' })).toHaveAccessibleDescription(
    'Set how long the GTT waits: 1 to 365 days',
  );
  await page.getByLabel('Valid for (days)').fill('30');
  await snap(page, 'trading-gtt-ticket');
  await page.getByRole('button', { name: 'Buy TCS' }).click();
  const review = page.getByRole('dialog', { name: 'Buy TCS?' });
  await expect(review.getByText('GTT', { exact: true })).toBeVisible();
  await expect(review.getByTestId('review-gtt')).toHaveText('30 days');
  await expectAccessible(page);
  await snap(page, 'trading-gtt-review');
  await review.getByRole('button', { name: 'Confirm buy' }).click();
  const placed = page.getByRole('dialog', { name: 'Order placed' });
  await expect(placed.getByText('Pending')).toBeVisible();
  await placed.getByRole('button', { name: 'Done' }).click();

  // Stored on the server: after a reload it is still there, waiting, with its validity.
  await page.goto('/records?tab=pending');
  await page.reload();
  const card = page.locator('[data-order]').filter({ hasText: 'TCS' }).first();
  await expect(card.getByTestId('order-type')).toHaveText('GTT');
  await card.getByRole('button').click();
  const detail = page.getByRole('dialog', { name: 'Buy TCS' });
  await expect(detail.getByText('Trigger price')).toBeVisible();
  await expect(detail.getByText('Valid until')).toBeVisible();
  await snap(page, 'records-gtt');
  await detail.getByRole('button', { name: 'Cancel order for TCS' }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this order?' })
    .getByRole('button', { name: 'Cancel order' })
    .click();
  await expect(toast(page, 'Order cancelled')).toBeVisible();
});

test('an order the balance cannot pay is stopped before it is sent, saying why', async ({ page }) => {
  const user = await registerViaApi(page);
  await login(page, user.phone, user.password, '/trading/TCS');
  // The server's answer for an empty account: it affords nothing, and the maximum says so.
  await expect(page.getByTestId('trade-max')).toHaveText('Max 0 · what your balance affords');
  await expect(page.getByText('Your balance affords at most 0')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy TCS' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Buy TCS' })).toHaveAccessibleDescription(
    'Insufficient funds: add funds or lower the quantity',
  );
});

test('holdings: an empty state per type, and the no-nav variant takes its type from the path', async ({
  page,
}) => {
  const user = await registerViaApi(page);
  await login(page, user.phone, user.password, '/trade');
  await expect(page.getByText('You hold no stocks')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  for (const [type, text] of [
    ['Forex', 'You hold no forex positions'],
    ['Futures', 'You hold no futures'],
    ['Treasury', 'You hold no treasury debt'],
  ] as const) {
    await page.getByRole('radio', { name: type }).click();
    await expect(page.getByText(text)).toBeVisible();
  }
  await expectAccessible(page);
  await page.goto('/trade-no-nav/forex/1');
  await expect(page.getByRole('radio', { name: 'Forex', checked: true })).toBeVisible();
  await expect(page.getByText('You hold no forex positions')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
  await page.getByRole('radio', { name: 'Futures' }).click();
  await expect(page).toHaveURL(/\/trade-no-nav\/futures\/1$/);

  await page.goto('/trading/NOPE123');
  await expect(page.getByText('No instrument found for NOPE123')).toBeVisible();

  // A pair shown without =X trades in its own currency, at its own four decimals.
  await page.goto('/trading/EURUSD');
  await expect(page).toHaveURL(/\/stock\/trading\/EURUSD(=|%3D)X\/FOREX\//);
  await expect(page.getByTestId('trade-price')).toHaveText(/^\$\d+\.\d{4}$/);
  await expect(page.getByText('You hold no EURUSD')).toBeVisible();
});

test('watchlist: favourites with prices, edit mode, delete with confirmation', async ({ page, context }) => {
  const user = await registerViaApi(page, newPhone(), PASSWORD);
  await login(page, user.phone, PASSWORD, '/watchlists');
  await expect(page.getByText('No favourites yet')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Indices' }).getByRole('link').first()).toBeVisible();

  const token = await tokenFor(user.phone);
  for (const symbol of ['HDFCBANK.NS', 'AAPL', 'TCS.NS']) {
    const res = await api.post('/api/stock/success/collection/add', { headers: { token }, data: { symbol } });
    expect((await res.json()).msg).toBe('ok');
  }
  await page.reload();
  const rows = page.getByRole('list', { name: 'Favourites' }).getByRole('listitem');
  await expect(rows).toHaveCount(3);
  // Codes without the exchange suffix, each with a price.
  await expect(rows.filter({ hasText: 'HDFCBANK' }).getByText(/^\d[\d,]*\.\d{2}$/)).toBeVisible();
  await expect(page.getByText('HDFCBANK.NS')).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'watchlist');
  await fitsNarrowPhone(page, 'watchlist');

  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('button', { name: 'Done' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Delete AAPL' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove from watchlist?' });
  await expect(dialog).toContainText('AAPL');
  await expectAccessible(page);
  await snap(page, 'watchlist-delete');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows).toHaveCount(3);

  // A refused delete says so and keeps the row.
  await page.route('**/api/stock/success/collection/delete', (route) =>
    route.fulfill({ json: { msg: 'no', data: 'errors.server' } }),
  );
  await page.getByRole('button', { name: 'Delete AAPL' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'delete failed, try again later')).toBeVisible();
  await expect(rows).toHaveCount(3);
  await page.unroute('**/api/stock/success/collection/delete');

  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'AAPL' })).toHaveCount(0);
  const list = await api.get('/api/stock/success/collection/list', { headers: { token } });
  expect((await list.json()).data.total).toBe(2);

  // Offline the delete waits in the outbox, marked pending sync, and is sent once back online.
  await goOffline(context);
  await page.getByRole('button', { name: 'Delete HDFCBANK' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(rows.filter({ hasText: 'HDFCBANK' }).getByText('Pending sync')).toBeVisible();
  await goOnline(context);
  await expect(rows).toHaveCount(1, { timeout: 15_000 });
  await expect
    .poll(async () => {
      const res = await api.get('/api/stock/success/collection/list', { headers: { token } });
      return (await res.json()).data.total;
    })
    .toBe(1);
});
