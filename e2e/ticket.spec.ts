import { expect, test } from './fixtures';
import { expectAccessible, fundedUserViaApi, login, newPhone, snap, toast } from './support';

/*
 * A market order placed through the ticket while its market is closed is an after-market
 * order (AMO). The ticket says so before the review, in the exchange's time ("Market closed —
 * placed at the open, Mon 09:15 IST"); the order rests pending with that send time on its record
 * card and can be cancelled until then, releasing what it reserved.
 *
 * No clock is moved: NSE (03:45–10:00 UTC) and NYSE (13:30/14:30–20:00/21:00 UTC) never trade at
 * the same instant, so at whatever hour the suite runs one of them is closed by the server's clock;
 * the journey asks the server (`/v2/depth`'s session) and trades that one.
 */
const PASSWORD = 'secret123';
const RECHARGE = 50_000;

const MARKETS = [
  {
    symbol: 'RELIANCE.NS',
    market: 'IN',
    name: 'Reliance Industries',
    code: 'RELIANCE',
    zone: 'Asia/Kolkata',
    label: 'IST',
  },
  { symbol: 'AAPL', market: 'US', name: 'Apple Inc.', code: 'AAPL', zone: 'America/New_York', label: 'ET' },
] as const;

interface Session {
  open: boolean;
  opens_at: number | null;
  closes_at: number;
}

test('a market order on a closed market is placed for the open, shown pending with its time, and cancelled', async ({
  page,
  playwright,
  server,
}) => {
  const api = await playwright.request.newContext({ baseURL: server.url });
  const phone = newPhone();
  const token = await fundedUserViaApi(api, phone, PASSWORD, RECHARGE);
  const sessions = await Promise.all(
    MARKETS.map(
      async (m) => (await (await api.get(`/api/v2/depth?symbol=${m.symbol}`)).json()).data.session as Session,
    ),
  );
  const at = sessions.findIndex((s) => !s.open);
  expect(at, 'NSE and NYSE are never open at once').toBeGreaterThanOrEqual(0);
  const m = MARKETS[at]!;
  const opensAt = sessions[at]!.opens_at!;
  // "Mon 09:15 IST": the open in the exchange's zone with its label, whatever the browser's zone.
  const when = `${new Intl.DateTimeFormat('en-GB', {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: m.zone,
  }).format(opensAt)} ${m.label}`;
  const notice = `Market closed — placed at the open, ${when}`;

  await login(page, phone, PASSWORD, `/stock/trading/${m.symbol}/${m.market}/${encodeURIComponent(m.name)}`);
  // Before the review: what a market order does on a closed market.
  await expect(page.getByTestId('trade-closed')).toHaveText(notice);
  await expect(page.getByTestId('trade-need')).toContainText(
    /^Required [$₹][\d,]+\.\d{2} · Available ₹50,000\.00 · Charges ₹/,
  );
  await snap(page, 'ticket-closed');
  await page.getByRole('button', { name: `Buy ${m.code}` }).click();
  const review = page.getByRole('dialog', { name: `Buy ${m.code}?` });
  await expect(review.getByTestId('review-closed')).toHaveText(notice);
  await expect(review.getByTestId('review-product')).toHaveText('Delivery');
  await expect(review.getByTestId('review-validity')).toHaveText('Day');
  await expectAccessible(page);
  await snap(page, 'ticket-closed-review');
  await review.getByRole('button', { name: 'Confirm buy' }).click();

  // Placed, not filled: pending until the open, at the exchange's time.
  const placed = page.getByRole('dialog', { name: 'Order placed' });
  await expect(placed.getByText('Pending')).toBeVisible();
  await expect(placed.getByTestId('result-sends-at')).toHaveText(when);
  const rows = (await (
    await api.get('/api/stock/success/order/list?status=0', { headers: { token } })
  ).json()) as {
    data: { rows: Array<{ no: string; amo: boolean; send_at: number | null; status: number }> };
  };
  expect(rows.data.rows).toEqual([expect.objectContaining({ amo: true, send_at: opensAt, status: 0 })]);

  await placed.getByRole('link', { name: 'View orders' }).click();
  await expect(page).toHaveURL(/\/records/);
  const card = page.locator(`[data-order="${rows.data.rows[0]!.no}"]`);
  await expect(card.getByTestId('order-status')).toHaveText('Pending');
  await expect(card.getByTestId('order-amo')).toHaveText('After-market');
  await expect(card.getByTestId('order-type')).toHaveText('Market');
  await card.getByRole('button').click();
  const detail = page.getByRole('dialog', { name: `Buy ${m.code}` });
  await expect(detail.getByTestId('order-sends-at')).toHaveText(when);
  await snap(page, 'records-amo');

  // Cancelled before the open: what it reserved comes back whole.
  await detail.getByRole('button', { name: `Cancel order for ${m.code}` }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this order?' })
    .getByRole('button', { name: 'Cancel order' })
    .click();
  await expect(toast(page, 'Order cancelled')).toBeVisible();
  await expect(card.getByTestId('order-status')).toHaveText('Cancelled');
  await expect(card.getByTestId('order-amo')).toBeHidden();
  await card.getByRole('button').click();
  await expect(detail.getByTestId('detail-status')).toHaveText('Cancelled');
  await expect(detail.getByTestId('order-sends-at')).toBeHidden();
  await detail.getByRole('button', { name: 'Done' }).click();
  const info = await (await api.get('/api/stock/success/v2/user/info', { headers: { token } })).json();
  expect(info.data.money).toBe(`${RECHARGE}.00`);
  await api.dispose();
});

test('an IOC is shown as the server left it: cancelled with its reason when it cannot fill, never "filled"; not offered on a closed market', async ({
  page,
  playwright,
  server,
}) => {
  const api = await playwright.request.newContext({ baseURL: server.url });
  const phone = newPhone();
  const token = await fundedUserViaApi(api, phone, PASSWORD, RECHARGE);
  const sessions = await Promise.all(
    MARKETS.map(
      async (m) => (await (await api.get(`/api/v2/depth?symbol=${m.symbol}`)).json()).data.session as Session,
    ),
  );
  const closed = MARKETS[sessions.findIndex((s) => !s.open)]!;
  const open = MARKETS[sessions.findIndex((s) => s.open)];
  expect(open, 'the e2e server starts inside an NSE session (e2e/clock-start.ts)').toBeDefined();
  await login(page, phone, PASSWORD);

  // A closed market: IOC cannot wait for the open, so the ticket does not offer it, and says why.
  await page.goto(`/stock/trading/${closed.symbol}/${closed.market}/${encodeURIComponent(closed.name)}`);
  await expect(page.getByTestId('trade-closed')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'IOC' })).toBeDisabled();
  await expect(page.getByTestId('trade-product-hint')).toContainText('an IOC order would be cancelled');

  // An open market: an IOC limit under the market cannot fill at once. The server cancels it, and
  // the result says so — its status, 0 filled, why, and the money back — with no contract note.
  await page.goto(`/stock/trading/${open!.symbol}/${open!.market}/${encodeURIComponent(open!.name)}`);
  await page.getByRole('radio', { name: 'Limit' }).click();
  // The price as the ticket shows it once its quote has come (read before, it was empty: a limit of 0.00).
  await expect(page.getByTestId('trade-price')).toHaveText(/\d/);
  const ltp = Number((await page.getByTestId('trade-price').textContent())!.replace(/[^\d.]/g, ''));
  await page.getByLabel('Limit price').fill((Math.floor(ltp * 0.97 * 100) / 100).toFixed(2));
  await page.getByRole('radio', { name: 'IOC' }).click();
  await page.getByRole('button', { name: `Buy ${open!.code}` }).click();
  const review = page.getByRole('dialog', { name: `Buy ${open!.code}?` });
  await expect(review.getByTestId('review-validity')).toHaveText('IOC');
  await review.getByRole('button', { name: 'Confirm buy' }).click();
  const result = page.getByRole('dialog', { name: 'Order cancelled' });
  await expect(result.getByTestId('result-status')).toHaveText('Cancelled');
  await expect(result.getByTestId('result-filled')).toHaveText('0 of 1');
  await expect(result.getByTestId('result-reason')).toContainText('the IOC order was cancelled');
  await expect(page.getByRole('dialog', { name: 'Order filled' })).toHaveCount(0);
  await expect(result.getByRole('button', { name: 'Contract note' })).toHaveCount(0);
  await snap(page, 'result-cancelled');
  const info = await (await api.get('/api/stock/success/v2/user/info', { headers: { token } })).json();
  expect(info.data.money).toBe(`${RECHARGE}.00`);
  await result.getByRole('link', { name: 'View orders' }).click();
  await expect(page).toHaveURL(/\/records/);
  // The orders list says the same, and why.
  const row = page.locator('[data-order]').first();
  await expect(row.getByTestId('order-status')).toHaveText('Cancelled');
  await expect(row.getByTestId('order-reason')).toHaveText('IOC: not filled at once');
  await api.dispose();
});

/** The top of the fixed action bar (its need line): what the page shows above it is on screen. */
async function foldOf(page: import('@playwright/test').Page): Promise<number> {
  const need = await page.getByTestId('trade-need').boundingBox();
  expect(need).not.toBeNull();
  return need!.y;
}

async function boxOf(locator: import('@playwright/test').Locator) {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!;
}

test("the ticket's first screen: quantity and price on top, a limit at the last price, every disabled Buy says why, one hint for the options chosen", async ({
  page,
  playwright,
  server,
}) => {
  const api = await playwright.request.newContext({ baseURL: server.url });
  const phone = newPhone();
  await fundedUserViaApi(api, phone, PASSWORD, RECHARGE);
  const sessions = await Promise.all(
    MARKETS.map(
      async (m) => (await (await api.get(`/api/v2/depth?symbol=${m.symbol}`)).json()).data.session as Session,
    ),
  );
  const open = MARKETS[sessions.findIndex((s) => s.open)];
  const closed = MARKETS[sessions.findIndex((s) => !s.open)]!;
  expect(open, 'the e2e server starts inside an NSE session (e2e/clock-start.ts)').toBeDefined();
  const path = (m: (typeof MARKETS)[number]) =>
    `/stock/trading/${m.symbol}/${m.market}/${encodeURIComponent(m.name)}`;
  await login(page, phone, PASSWORD, path(open!));
  await expect(page.getByTestId('trade-price')).toHaveText(/\d/);

  // 390×844: the quantity and the price asked, side by side, well above the action bar.
  const qty = page.getByRole('textbox', { name: 'Quantity' });
  const qtyBox = await boxOf(qty);
  const priceBox = await boxOf(page.getByTestId('trade-at-market'));
  const fold = await foldOf(page);
  console.log(`390×844: quantity input y=${qtyBox.y}, action bar at y=${fold}`);
  expect(qtyBox.y).toBeLessThan(420);
  expect(qtyBox.y + qtyBox.height).toBeLessThanOrEqual(fold);
  expect(Math.abs(priceBox.y + priceBox.height - (qtyBox.y + qtyBox.height))).toBeLessThan(4);
  // "SL-M" is one line, as tall as its neighbours.
  const slm = await boxOf(page.getByRole('radio', { name: 'SL-M' }));
  const market = await boxOf(page.getByRole('radio', { name: 'Market' }));
  expect(slm.height).toBe(market.height);
  // Market, delivery, day on an open market: nothing to warn about, so no hint at all.
  await expect(page.getByTestId('trade-product-hint')).toHaveCount(0);
  await snap(page, 'ticket-first-screen');

  // A limit starts at the last price shown, and stays the user's to change.
  const shown = async () => (await page.getByTestId('trade-price').textContent())!.replace(/[^\d.]/g, '');
  const before = await shown();
  await page.getByRole('radio', { name: 'Limit' }).click();
  const limit = page.getByRole('textbox', { name: 'Limit price' });
  const prefilled = await limit.inputValue();
  // The quote is polled: the prefill is the price shown at the tap, before or after a new one.
  expect([before, await shown()]).toContain(prefilled);
  expect(Number(prefilled)).toBeGreaterThan(0);
  const limitBox = await boxOf(limit);
  expect(limitBox.y).toBeLessThan(420);

  // One hint for what is chosen: a day limit waits; intraday adds the square-off; IOC never waits.
  const hint = page.getByTestId('trade-product-hint');
  await expect(hint).toContainText('it waits for the market to reach your price');
  await expect(hint).not.toContainText('squared off');
  await page.getByRole('radio', { name: 'Intraday' }).click();
  await expect(hint).toContainText(/squared off at the close, \d\d:\d\d (IST|ET)/);
  await snap(page, 'ticket-limit-intraday');
  await page.getByRole('radio', { name: 'IOC' }).click();
  await expect(hint).toContainText('what cannot fill at once is cancelled, it never waits');
  await expect(hint).not.toContainText('until the session closes');
  await page.getByRole('radio', { name: 'Delivery' }).click();
  await expect(hint).not.toContainText('squared off');
  await expect(hint).toContainText('what cannot fill at once is cancelled');
  await page.getByRole('radio', { name: 'Day', exact: true }).click();

  // Every disabled Buy says why, in a line under it that is its description.
  const buy = page.getByRole('button', { name: `Buy ${open!.code}` });
  await expect(buy).toBeEnabled();
  const why = async (reason: string | RegExp) => {
    await expect(buy).toBeDisabled();
    await expect(buy).toHaveAccessibleDescription(reason);
    await expect(page.getByText(reason)).toBeVisible();
  };
  await qty.fill('');
  await why('Enter a quantity');
  await qty.fill('1');
  await limit.fill('');
  await why('Enter a limit price');
  // A buy 20 % under the market would rest outside the server's band (LIMIT_BAND_BPS, 10 %).
  await limit.fill((Math.floor(Number(prefilled) * 80) / 100).toFixed(2));
  await why('Price outside the 10% band around the market: bring it closer');
  await snap(page, 'ticket-why-band');
  await limit.fill(prefilled);
  await expect(buy).toBeEnabled();
  await expect(buy).not.toHaveAccessibleDescription(/./);
  // ₹50,000 affords fewer than 45 at this price (the server's figures say how many). Until the
  // answer for this price arrives the maximum says it is being checked, never the last price's.
  const maxHint = page.getByTestId('trade-max');
  await expect(maxHint).toHaveText(/^Max \d+ · what your balance affords$/);
  const max = Number(/Max (\d+)/.exec((await maxHint.textContent()) ?? '')?.[1]);
  expect(max).toBeLessThan(45);
  await qty.fill('45');
  await why('Insufficient funds: add funds or lower the quantity');
  await expectAccessible(page);
  await qty.fill('1');

  // A closed market: IOC is off, and the hint says an IOC would be cancelled, never that it waits.
  await page.goto(path(closed));
  await expect(page.getByTestId('trade-closed')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'IOC' })).toBeDisabled();
  await expect(hint).toHaveText(
    'IOC is off while the market is closed: an IOC order would be cancelled, not kept for the open.',
  );

  // German at 320×640: the quantity and the price still on the first screen, above the action bar.
  await page.evaluate(() => localStorage.setItem('bourse.language', 'de'));
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto(path(open!));
  await expect(page.getByTestId('trade-price')).toHaveText(/\d/);
  const menge = await boxOf(page.getByRole('textbox', { name: 'Menge' }));
  const preis = await boxOf(page.getByTestId('trade-at-market'));
  const deFold = await foldOf(page);
  console.log(
    `de 320×640: quantity input y=${menge.y}, price bottom ${preis.y + preis.height}, action bar at y=${deFold}`,
  );
  expect(menge.y + menge.height).toBeLessThanOrEqual(deFold);
  expect(preis.y + preis.height).toBeLessThanOrEqual(deFold);
  await snap(page, 'ticket-first-screen-de-320');

  // 200 % text (English, 390×844): the quantity field whole above the action bar.
  await page.evaluate(() => localStorage.setItem('bourse.language', 'en'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(path(open!));
  await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
  await expect(page.getByTestId('trade-price')).toHaveText(/\d/);
  const big = await boxOf(qty);
  const bigFold = await foldOf(page);
  console.log(`200 % text: quantity input y=${big.y}, action bar at y=${bigFold}`);
  expect(big.y + big.height).toBeLessThanOrEqual(bigFold);
  await snap(page, 'ticket-first-screen-200');
  await api.dispose();
});
