import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { measureLayout, settled } from './layout';
import { expectAccessible, fundedUserViaApi, login, newPhone, snap } from './support';

/**
 * The orders list a trader scans: one compact row per order (side, code, type, product, validity,
 * filled/quantity, price, the server's status and why an unfilled order ended), about eight to a
 * 390×844 screen, and the detail sheet a row opens (times in IST, cancel where allowed).
 *
 * Its orders are seeded through the API and read the same whether NSE is open or not, so the
 * journey moves no clock: a limit buy 8 % under the market rests pending (in session) or waits for
 * the open (an after-market order); an IOC limit buy under the market is cancelled either way, with
 * the server's reason (it could not fill at once, or the market was closed).
 */

const PASSWORD = 'secret123';
const SYMBOLS = ['TCS.NS', 'INFY.NS', 'RELIANCE.NS'] as const;

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let phone = '';
let token = '';
const placed: Array<{ no: string; kind: 'limit' | 'ioc'; product: 'delivery' | 'intraday' }> = [];

async function buy(body: Record<string, unknown>) {
  const res = await api.post('/api/stock/success/deal/buy', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: { mold: 'stock', count: 1, ...body },
  });
  const json = await res.json();
  expect(json, JSON.stringify(body)).toMatchObject({ msg: 'ok' });
  return json.data as { no: string; status: number; order_type: string | null; reason: string | null };
}

/** 8 % under the quote, to the paisa: inside the limit band (10 %), too far to fill. */
async function under(symbol: string): Promise<number> {
  const quote = (await (await api.get(`/api/v2/quote?symbol=${symbol}`)).json()).data.price as number;
  return Math.floor(quote * 92) / 100;
}

test.beforeAll(async ({ playwright, server }) => {
  api = await playwright.request.newContext({ baseURL: server.url });
  phone = newPhone();
  token = await fundedUserViaApi(api, phone, PASSWORD, 1_000_000);
  // Ten orders, newest first on screen: pending limits (delivery and intraday) and cancelled IOCs.
  for (let i = 0; i < 10; i++) {
    const tag = SYMBOLS[i % SYMBOLS.length]!;
    const price = await under(tag);
    const kind = i % 3 === 2 ? 'ioc' : 'limit';
    const product = i % 4 === 1 ? 'intraday' : 'delivery';
    const order = await buy({
      tag,
      price,
      order_type: 'limit',
      product,
      validity: kind === 'ioc' ? 'ioc' : 'day',
    });
    expect(order.order_type).toBe('limit');
    if (kind === 'ioc')
      expect(order).toMatchObject({ status: 2, reason: expect.stringMatching(/^errors\.ioc/) });
    else expect(order.status).toBe(0);
    placed.push({ no: order.no, kind, product });
  }
});

test.afterAll(async () => {
  await api?.dispose();
});

const row = (page: Page, no: string) => page.locator(`[data-order="${no}"]`);

test('a screen of orders: at least seven compact rows at 390×844, each saying what it is', async ({
  page,
}) => {
  await login(page, phone, PASSWORD, '/records');
  const rows = page.locator('[data-order]');
  await expect(rows).toHaveCount(10);
  // Measured, not assumed: each row's height, and how many lie wholly inside the viewport above
  // the bottom navigation.
  const measured = await page.evaluate(() => {
    // The bottom navigation or the customer-service bar, whichever is drawn over the list.
    const bars = [...document.querySelectorAll('[data-bottom-bar]')]
      .map((el) => el.getBoundingClientRect())
      .filter((b) => b.height > 0);
    const bottom = Math.min(window.innerHeight, ...bars.map((b) => b.top));
    const boxes = [...document.querySelectorAll('[data-order]')].map((el) => el.getBoundingClientRect());
    return {
      heights: boxes.map((b) => Math.round(b.height)),
      visible: boxes.filter((b) => b.top >= 0 && b.bottom <= bottom).length,
      bottom: Math.round(bottom),
    };
  });
  console.log(
    `order rows: heights ${measured.heights.join(', ')} px; ${measured.visible} wholly visible above y=${measured.bottom}`,
  );
  expect(measured.visible).toBeGreaterThanOrEqual(7);
  for (const h of measured.heights) expect(h).toBeLessThanOrEqual(96);

  for (const { no, kind, product } of placed) {
    const r = row(page, no);
    // A limit order says Limit, filled at once or not; the product is always named.
    await expect(r.getByTestId('order-type')).toHaveText('Limit');
    await expect(r.getByTestId('order-product')).toHaveText(product === 'intraday' ? 'Intraday' : 'Delivery');
    await expect(r.getByTestId('order-validity')).toHaveText(kind === 'ioc' ? 'IOC' : 'Day');
    await expect(r.getByTestId('order-filled')).toHaveText('0/1');
    await expect(r.getByTestId('order-price')).toHaveText(/^₹[\d,]+\.\d{2}$/);
    if (kind === 'ioc') {
      // Cancelled by the server, not the user: the status and its reason on the row itself.
      await expect(r.getByTestId('order-status')).toHaveText('Cancelled');
      await expect(r.getByTestId('order-reason')).toHaveText(
        /^IOC: (not filled at once|the market was closed)$/,
      );
    } else {
      await expect(r.getByTestId('order-status')).toHaveText('Pending');
      await expect(r.getByTestId('order-reason')).toHaveCount(0);
    }
  }
  await expectAccessible(page);
  await snap(page, 'orders-list');
});

test('a row opens its detail: the order in full, placed at an IST time, cancel where allowed', async ({
  page,
}) => {
  await login(page, phone, PASSWORD, '/records');
  const cancelled = placed.find((p) => p.kind === 'ioc')!;
  const r = row(page, cancelled.no);
  await r.getByRole('button').click();
  const detail = page.getByRole('dialog', { name: /^Buy / });
  await expect(detail.getByTestId('detail-status')).toHaveText('Cancelled');
  await expect(detail.getByTestId('detail-reason')).toContainText('IOC order');
  await expect(detail.getByTestId('detail-placed')).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} IST$/);
  await expect(detail.getByTestId('detail-filled')).toHaveText('0 of 1');
  // The server ended it at once: it never held money, so nothing is said to come back.
  await expect(detail.getByText('Back in your balance')).toHaveCount(0);
  // Ended: nothing to cancel, no contract note (nothing traded).
  await expect(detail.getByRole('button', { name: /^Cancel order/ })).toHaveCount(0);
  await expect(detail.getByRole('button', { name: /^Contract note/ })).toHaveCount(0);
  await expectAccessible(page);
  await snap(page, 'orders-detail-cancelled');
  await detail.getByRole('button', { name: 'Done' }).click();
  await expect(detail).toBeHidden();

  // A pending limit: its limit, what it reserves, and a cancel that works.
  const pending = placed.find((p) => p.kind === 'limit')!;
  const p = row(page, pending.no);
  await p.getByRole('button').click();
  const sheet = page.getByRole('dialog', { name: /^Buy / });
  await expect(sheet.getByText('Limit price')).toBeVisible();
  await expect(sheet.getByText('Reserved')).toBeVisible();
  await expect(sheet.getByTestId('detail-placed')).toHaveText(/IST$/);
  await snap(page, 'orders-detail-pending');
  await sheet.getByRole('button', { name: /^Cancel order for / }).click();
  await page
    .getByRole('dialog', { name: 'Cancel this order?' })
    .getByRole('button', { name: 'Cancel order' })
    .click();
  await expect(p.getByTestId('order-status')).toHaveText('Cancelled');
  await expect(p.getByTestId('order-reason')).toHaveText('Cancelled by you');
});

test('German at 320 px: the rows and the detail fit, nothing cut or off the side', async ({ page }) => {
  await login(page, phone, PASSWORD);
  await page.evaluate(() => localStorage.setItem('bourse.language', 'de'));
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/records');
  const first = page.locator('[data-order]').first();
  await expect(first.getByTestId('order-product')).toHaveText(/Lieferung|Intraday/);
  await settled(page);
  // The project's layout measure: nothing sideways, cut, clipped or drawn over another text.
  expect(await measureLayout(page)).toEqual([]);
  await snap(page, 'orders-list-de-320');
  await first.getByRole('button').click();
  await expect(page.getByRole('dialog').getByTestId('detail-placed')).toHaveText(/IST$/);
  expect(await measureLayout(page)).toEqual([]);
  await snap(page, 'orders-detail-de-320');
});
