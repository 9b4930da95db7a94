import fs from 'node:fs';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { BASE_URL } from './playwright.config';
import { expectAccessible, fundedUserViaApi, login, newPhone, ops, snap } from './support';

/*
 * The portfolio (issue 13) against the real server: a funded user buys 10 TCS, the Trade tab's
 * summary shows invested, current value and P&L; the server's clock moves three days (so the
 * price certainly moves, whatever the hour), and the P&L with it; a partial sale appears in the
 * realised P&L statement, whose CSV download carries the same figures. The clock move is why this
 * file is its own Playwright project, after every other journey (playwright.config.ts).
 */
test.describe.configure({ mode: 'serial' });

const PASSWORD = 'secret123';
const SYMBOL = 'TCS.NS';
let api: APIRequestContext;
let phone = '';
let token = '';

/** "₹12,34,567.89" / "-₹5.00" / "▲+₹1.00 (+0.10%)" → minor units of the first amount, exactly. */
function minorOf(text: string): number {
  const m = /(-?)[^\d-]*([\d,]+)\.(\d{2})/.exec(text.replace(/\s|[▲▼]/g, ''));
  if (!m) throw new Error(`no amount in "${text}"`);
  const minor = Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]);
  return m[1] ? -minor : minor;
}
const toMinor = (amount: string) => Math.round(Number(amount) * 100);

async function quote(): Promise<number> {
  const res = await api.get(`/api/v2/quote?symbol=${SYMBOL}`);
  return (await res.json()).data.price as number;
}

async function summary() {
  const res = await api.get('/api/stock/success/v2/portfolio/summary', { headers: { token } });
  return (await res.json()).data;
}

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: BASE_URL });
  phone = newPhone();
  token = await fundedUserViaApi(api, phone, PASSWORD, 100_000);
});

test.afterAll(async () => {
  await api?.dispose();
});

test('buy → summary shows invested, value and P&L → the price moves → the P&L moves; statement downloads', async ({
  page,
}) => {
  // The buy itself is the order ticket's journey (trading.spec.ts); here it only makes a position.
  const bought = await api.post('/api/stock/success/deal/buy', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: { mold: 'stock', tag: SYMBOL, count: 10, price: await quote() },
  });
  const order = (await bought.json()).data;
  expect(order.status).toBe(1);
  const invested = toMinor(order.price_all);

  await login(page, phone, PASSWORD);
  await page.goto('/trade');
  const card = page.getByTestId('portfolio-totals');
  await expect(card.getByTestId('portfolio-invested')).toHaveText(/₹/);
  expect(minorOf((await card.getByTestId('portfolio-invested').textContent()) ?? '')).toBe(invested);
  await expect(card.getByText('1 position')).toBeVisible();
  const valueBefore = minorOf((await card.getByTestId('portfolio-value').textContent()) ?? '');
  const pnlBefore = minorOf((await card.getByTestId('portfolio-pnl').textContent()) ?? '');
  expect(pnlBefore).toBe(valueBefore - invested);
  // The row: quantity, average and last price, P&L and today's change.
  const row = page.getByRole('link', { name: /^TCS Tata Consultancy Services: 10 held/ });
  await expect(row).toContainText('Avg ₹');
  await expect(row).toContainText('LTP ₹');
  await expect(row.getByTestId('row-today')).toContainText('Today');
  await expect(page.getByTestId('type-totals')).toContainText('Stocks · invested');
  await expect(card.getByText(/Unrealised returns/)).toBeVisible();
  await expect(card.locator('[data-tier]')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'holdings');

  // Three days on the simulator's price has moved (a session has closed in between).
  ops('clock:advance', '3d');
  await expect
    .poll(async () => minorOf((await card.getByTestId('portfolio-value').textContent()) ?? ''), {
      timeout: 20_000,
    })
    .not.toBe(valueBefore);
  const valueAfter = minorOf((await card.getByTestId('portfolio-value').textContent()) ?? '');
  const pnlText = (await card.getByTestId('portfolio-pnl').textContent()) ?? '';
  // The card may refresh between reads: compare with the server's own figures of that moment.
  await expect
    .poll(async () => {
      const s = await summary();
      return toMinor(s.overall.pnl) === toMinor(s.overall.value) - invested && toMinor(s.overall.invested);
    })
    .toBe(invested);
  expect(minorOf(pnlText)).toBe(valueAfter - invested);
  expect(minorOf(pnlText)).not.toBe(pnlBefore);

  // Sell 4: realised P&L on the statement.
  const sold = await api.post('/api/stock/success/deal/sell', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: { mold: 'stock', tag: SYMBOL, count: 4, price: await quote() },
  });
  const sale = (await sold.json()).data;
  expect(sale.status).toBe(1);

  // Home: total with today's change, the value chart and the allocation.
  await page.goto('/');
  await expect(page.getByTestId('portfolio-today-line')).toContainText('Today');
  await expect(page.getByTestId('home-holdings')).toHaveText(/₹/);
  await expect(page.getByRole('heading', { name: 'Portfolio value' })).toBeVisible();
  await expect(page.getByTestId('allocation').getByRole('listitem', { name: /^Stocks: ₹/ })).toBeVisible();
  await expect(page.getByTestId('allocation').getByRole('listitem', { name: /^Cash: ₹/ })).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'home');

  await page.goto('/account');
  await expect(page.getByTestId('account-holdings')).toHaveText(/₹/);
  await expect(page.getByTestId('portfolio-today-line')).toBeVisible();
  await expectAccessible(page);
  await snap(page, 'account');

  await page.getByRole('link', { name: 'P&L statement' }).click();
  await expect(page).toHaveURL(/\/statement$/);
  const line = page.locator(`[data-symbol="${SYMBOL}"]`);
  await expect(line).toContainText('4 units');
  await expect(line).toContainText('TCS');
  await expect(page.getByTestId('statement-totals')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Financial year' })).toHaveValue(/^20\d\d$/);
  await expectAccessible(page);
  await snap(page, 'statement');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^statement-20\d\d-\d\d\.csv$/);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const lines = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('Instrument,Name,Units sold,Cost,Proceeds,Realised P&L,Charges,Net,Currency');
  const tcs = lines.find((l) => l.startsWith(`${SYMBOL},`))!.split(',');
  // Units sold, cost, proceeds, realised as the sale recorded them.
  expect(tcs[2]).toBe('4');
  expect(tcs[4]).toBe(sale.price_all);
  expect(tcs[5]).toBe(sale.profit);
  expect(toMinor(tcs[4]!) - toMinor(tcs[3]!)).toBe(toMinor(sale.profit));
  expect(lines.at(-1)).toMatch(/^Total,,4,/);
});
