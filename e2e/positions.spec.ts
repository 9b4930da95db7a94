import { expect, test } from './fixtures';
import { expectAccessible, fundedUserViaApi, login, newPhone, snap } from './support';

/*
 * Positions (the trade area's second view): an intraday buy through the ticket shows on Positions
 * with its net quantity, P&L and the square-off time in the exchange's zone; Exit confirms what it
 * sells with its charges, and the result and the list are the server's — the sell filled, the
 * position closed, nothing left for the square-off. The e2e server starts inside an NSE session
 * (e2e/clock-start.ts); nothing moves its clock.
 */
const PASSWORD = 'secret123';
const SYMBOL = 'RELIANCE.NS';
const CODE = 'RELIANCE';

interface ServerPosition {
  stock: string;
  product: 'intraday' | 'delivery';
  net: number;
  exitable: number;
  square_at: number | null;
  prasent: number;
}

test('an intraday buy shows on Positions with its P&L and square-off time, and Exit closes it', async ({
  page,
  playwright,
  server,
}) => {
  const api = await playwright.request.newContext({ baseURL: server.url });
  const phone = newPhone();
  const token = await fundedUserViaApi(api, phone, PASSWORD, 1_000_000);
  const get = async (url: string) =>
    (await (await api.get(`/api${url}`, { headers: { token } })).json()).data;
  const session = (await get(`/v2/depth?symbol=${SYMBOL}`)).session as { open: boolean; closes_at: number };
  expect(session.open, 'the e2e server starts inside an NSE session').toBe(true);
  // "15:30 IST": the close in the exchange's zone with its label, whatever the browser's zone.
  const close = `${new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: 'Asia/Kolkata',
  }).format(session.closes_at)} IST`;

  await login(
    page,
    phone,
    PASSWORD,
    `/stock/trading/${SYMBOL}/IN/${encodeURIComponent('Reliance Industries')}`,
  );
  await page.getByRole('radio', { name: 'Intraday' }).click();
  await expect(page.getByTestId('trade-product-hint')).toContainText('Full value required (no margin)');
  await page.getByRole('textbox', { name: 'Quantity' }).fill('3');
  await page.getByRole('button', { name: `Buy ${CODE}` }).click();
  const review = page.getByRole('dialog', { name: `Buy ${CODE}?` });
  await expect(review.getByTestId('review-product')).toHaveText('Intraday');
  // The review repeats when the position is squared off: today's close, in the exchange's zone.
  await expect(review.getByTestId('review-square-off')).toContainText(close);
  await review.getByRole('button', { name: 'Confirm buy' }).click();
  const bought = page.getByRole('dialog', { name: 'Order filled' });
  await expect(bought.getByTestId('result-filled')).toHaveText('3 of 3');
  await bought.getByRole('button', { name: 'Done' }).click();

  // Holdings | Positions: the trade area's switch.
  await page.goto('/trade');
  const views = page.getByRole('navigation', { name: 'Holdings or positions' });
  await expect(views.getByRole('link', { name: 'Holdings' })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator(`li[data-symbol="${SYMBOL}"]`)).toBeVisible();
  await snap(page, 'holdings-switch');
  await views.getByRole('link', { name: 'Positions' }).click();
  await expect(page).toHaveURL(/\/trade\/positions$/);
  const open = page.getByTestId('positions-open');
  const row = open.locator(`[data-symbol="${SYMBOL}"][data-product="intraday"]`);
  await expect(row.getByTestId('position-net')).toHaveText('3');
  await expect(row.getByTestId('position-square-off')).toHaveText(`Squared off automatically at ${close}`);
  await expect(row.getByTestId('position-pnl')).toHaveText(/^(▲ \+|▼ -)?₹[\d,]+\.\d{2}$/);
  await expect(page.getByTestId('positions-pnl')).toHaveText(/₹[\d,]+\.\d{2}$/);
  // What the screen shows is the server's position.
  const before = ((await get('/stock/success/v2/positions')).rows as ServerPosition[]).find(
    (r) => r.stock === SYMBOL && r.product === 'intraday',
  );
  expect(before).toMatchObject({ net: 3, exitable: 3, square_at: session.closes_at });
  await expectAccessible(page);
  await snap(page, 'positions');

  // Exit: what is sold and its charges, then the server's result.
  await row.getByRole('button', { name: `Exit ${CODE}` }).click();
  const confirm = page.getByRole('dialog', { name: `Exit ${CODE}?` });
  await expect(confirm.getByTestId('exit-count')).toHaveText('3');
  await expect(confirm.getByText('Intraday')).toBeVisible();
  await expect(confirm.getByText('Securities transaction tax')).toBeVisible();
  await expect(confirm.getByTestId('exit-line-net')).toHaveText(/^₹[\d,]+\.\d{2}$/);
  await expectAccessible(page);
  await snap(page, 'positions-exit');
  await confirm.getByRole('button', { name: 'Sell 3' }).click();
  const sold = page.getByRole('dialog', { name: 'Order filled' });
  await expect(sold.getByTestId('result-status')).toHaveText('Success');
  await expect(sold.getByTestId('result-filled')).toHaveText('3 of 3');
  await snap(page, 'positions-exit-result');

  // The server's final state: the intraday sell filled, the position closed, nothing to square off.
  const orders = (await get(`/stock/success/order/list?tag=${SYMBOL}&status=1`)).rows as Array<{
    state: string;
    product: string;
    count: number;
    status: number;
  }>;
  expect(orders[0]).toMatchObject({ state: 'sell', product: 'intraday', count: 3, status: 1 });
  const after = ((await get('/stock/success/v2/positions')).rows as ServerPosition[]).find(
    (r) => r.stock === SYMBOL && r.product === 'intraday',
  );
  expect(after).toMatchObject({ net: 0, exitable: 0, square_at: null });

  await sold.getByRole('button', { name: 'Done' }).click();
  await expect(row).toHaveCount(0);
  const closed = page
    .getByTestId('positions-closed')
    .locator(`[data-symbol="${SYMBOL}"][data-product="intraday"]`);
  await expect(closed.getByTestId('position-net')).toHaveText('0');
  await expect(closed.getByRole('button', { name: `Exit ${CODE}` })).toHaveCount(0);
  await snap(page, 'positions-closed');

  // German at 320 px: the figures and the square-off line fit.
  const again = await api.post('/api/stock/success/deal/buy', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: {
      mold: 'stock',
      tag: SYMBOL,
      count: 2,
      price: after!.prasent,
      product: 'intraday',
      order_type: 'market',
    },
  });
  expect((await again.json()).data).toMatchObject({ status: 1, product: 'intraday' });
  await page.evaluate(() => localStorage.setItem('bourse.language', 'de'));
  await page.setViewportSize({ width: 320, height: 640 });
  await page.reload();
  await expect(
    page
      .getByTestId('positions-open')
      .locator(`[data-symbol="${SYMBOL}"] [data-testid="position-square-off"]`),
  ).toContainText('glattgestellt');
  await snap(page, 'positions-de-320');
  await api.dispose();
});
