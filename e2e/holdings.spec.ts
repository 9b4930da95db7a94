import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { measureLayout, settled, visit } from './layout';
import { expectAccessible, fundedUserViaApi, intoNseSession, login, newPhone, snap } from './support';

/*
 * One portfolio truth (DESIGN rule 8) against the real server: a user buys a RELIANCE block lot,
 * places an after-market buy on the closed US market, applies for an IPO and buys a fund. Holdings
 * lists the lot with its lock-in (its sale sheet says until when and sells nothing yet); Home's and
 * Account's hero show each line — available, reserved with what holds it, holdings at market,
 * funds — and the total on screen is their sum, and the server's. A lot trades only in an NSE
 * session, so this file moves the server's clock into one: a worker and server of its own.
 */
test.describe.configure({ mode: 'serial' });
test.use({ ownServer: 'holdings' });

const PASSWORD = 'secret123';
const TRADE_CODE = '246810';
let api: APIRequestContext;
let phone = '';
let token = '';

/** "₹12,34,567.89" / "-₹5.00" → minor units, exactly. */
function minorOf(text: string): number {
  const m = /(-?)[^\d-]*([\d,]+)\.(\d{2})/.exec(text.replace(/\s/g, ''));
  if (!m) throw new Error(`no amount in "${text}"`);
  const minor = Number(m[2]!.replace(/,/g, '')) * 100 + Number(m[3]);
  return m[1] ? -minor : minor;
}
const toMinor = (amount: string) => Math.round(Number(amount) * 100);

async function call(method: 'GET' | 'POST', url: string, data?: unknown) {
  const res =
    method === 'GET'
      ? await api.get(`/api${url}`, { headers: { token } })
      : await api.post(`/api${url}`, {
          headers: { token, 'Idempotency-Key': crypto.randomUUID() },
          data,
        });
  const body = await res.json();
  expect(body, url).toMatchObject({ msg: 'ok' });
  return body.data;
}

test.beforeAll(async ({ playwright, server }) => {
  api = await playwright.request.newContext({ baseURL: server.url });
  await intoNseSession(api);
  phone = newPhone();
  token = await fundedUserViaApi(api, phone, PASSWORD, 1_000_000);
  await call('POST', '/stock/success/user/password/up', {
    type: 'transaction',
    is_first: true,
    fund_code_new: TRADE_CODE,
  });
});

test.afterAll(async () => {
  await api?.dispose();
});

/**
 * The hero as drawn: the total and each line's exact signed amount (`data-amount`), read in one go
 * so a poll between reads cannot mix two answers.
 */
async function heroOnScreen(page: Page) {
  const read = await page.evaluate(() => ({
    total: document.querySelector('[data-testid="total-assets"]')?.textContent ?? '',
    lines: [...document.querySelectorAll('[data-testid="hero-lines"] [data-line]')].map((el) => ({
      line: el.getAttribute('data-line') ?? '',
      amount: el.getAttribute('data-amount') ?? '',
      shown: el.querySelector('dd')?.textContent ?? '',
    })),
  }));
  return { total: minorOf(read.total), lines: read.lines };
}

async function expectHeroAddsUp(page: Page, lines: string[]) {
  await expect(page.getByTestId('hero-lines')).toBeVisible();
  await expect.poll(async () => (await heroOnScreen(page)).lines.map((l) => l.line)).toEqual(lines);
  const hero = await heroOnScreen(page);
  // Each line shows its amount; the total is their sum, to the paisa.
  for (const l of hero.lines) expect(minorOf(l.shown)).toBe(Math.abs(toMinor(l.amount)));
  expect(hero.lines.reduce((sum, l) => sum + toMinor(l.amount), 0)).toBe(hero.total);
  return hero;
}

test('a block lot is in Holdings with its lock; the hero adds up after a lot, an AMO, an IPO and a fund', async ({
  page,
}) => {
  // A RELIANCE block lot at the block price the server offers now (a lot trades in session only).
  const items = await call('POST', '/stock/success/stock/list', { mold: 'bulk', code: 'RELIANCE' });
  const item = items.rows[0];
  const lot = await call('POST', '/stock/success/deal/buy', {
    mold: 'bulk',
    id: item.id,
    tag: item.tag,
    count: item.count,
    price: item.price,
    stock_password: TRADE_CODE,
  });
  expect(lot).toMatchObject({ status: 1, sellable: false });
  expect(lot.unlock_at).toBeGreaterThan(0);

  // NYSE is shut whenever NSE trades: a market buy of AAPL is an after-market order, pending.
  const aapl = (await call('GET', '/v2/quote?symbol=AAPL')).price;
  const amo = await call('POST', '/stock/success/deal/buy', {
    mold: 'stock',
    tag: 'AAPL',
    count: 1,
    price: aapl,
  });
  expect(amo).toMatchObject({ status: 0, amo: true });

  // An IPO application (blocked until allotment) and a fund.
  const ipos = await call('GET', '/client/ipo');
  const ipo = ipos.rows.find((r: { status: string }) => r.status === 'Forthcoming');
  await call('POST', '/stock/success/ipo/buy', {
    id: ipo.id,
    tag: ipo.symbol,
    count: ipo.min,
    price: ipo.issue_price,
  });
  const funds = await call('GET', '/v2/fund/list');
  await call('POST', '/stock/success/fund/purchase', { project_id: funds.rows[0].id });

  // Holdings: the lot, with its kind, its lock-in, its value and P&L; its sheet says until when.
  await login(page, phone, PASSWORD, '/trade');
  const row = page.locator(`[data-lot="${lot.no}"]`);
  await expect(row).toContainText('Block lot');
  await expect(row.getByTestId('lot-lock')).toHaveText(
    new RegExp(`^${item.count} locked until \\d\\d/\\d\\d, \\d\\d:\\d\\d IST$`),
  );
  await expect(row).toContainText('LTP ₹');
  await expect(row).toContainText('Today');
  await expectAccessible(page);
  await snap(page, 'holdings-lot');
  await row.getByRole('button').click();
  const sheet = page.getByRole('dialog', { name: 'Sell RELIANCE' });
  await expect(sheet.getByTestId('sell-locked')).toContainText('Locked in: sellable from');
  await expect(sheet.getByRole('button', { name: 'Sell all' })).toBeDisabled();
  await snap(page, 'holdings-lot-sale');
  await sheet.getByRole('button', { name: 'Cancel' }).click();

  // Home: available, reserved (the AMO and the IPO), holdings at market, funds — and their sum.
  await page.goto('/');
  const home = await expectHeroAddsUp(page, ['available', 'reserved', 'holdings', 'funds']);
  await expect(page.getByTestId('hero-lines')).toContainText('Pending orders ₹');
  await expect(page.getByTestId('hero-lines')).toContainText('IPO applications ₹');
  // The server's own identity: user info's total is the hero's (its quotes may have moved since).
  const summary = await call('GET', '/stock/success/v2/portfolio/summary');
  expect(toMinor(summary.hero.reserved.ipo)).toBe(toMinor(String(ipo.issue_price)) * ipo.min);
  expect(toMinor(summary.hero.reserved.orders)).toBe(toMinor(amo.price_all));
  expect(home.lines.find((l) => l.line === 'reserved')?.amount).toBe(summary.hero.reserved.total);
  await expectAccessible(page);
  await snap(page, 'home-hero');

  await page.goto('/account');
  await expectHeroAddsUp(page, ['available', 'reserved', 'holdings', 'funds']);
  await expectAccessible(page);
  await snap(page, 'account-hero');

  // German at 320 px and English at 200 % text: every line, the lot and its lock fit and read whole.
  const screens = [
    { name: 'home', path: '/' },
    { name: 'account', path: '/account' },
    { name: 'holdings', path: '/trade' },
  ];
  const findings: string[] = [];
  const look = async (tag: string) => {
    for (const screen of screens) {
      await visit(page, screen.path);
      await settled(page);
      const shown = page.locator(
        screen.name === 'holdings' ? `[data-lot="${lot.no}"]` : '[data-testid="hero-lines"]',
      );
      await expect(shown).toBeVisible();
      for (const f of await measureLayout(page)) findings.push(`${tag} ${screen.name}: ${f.kind}: ${f.what}`);
      await shown.scrollIntoViewIfNeeded();
      await snap(page, `${screen.name}-lot-${tag}`);
    }
  };
  await page.evaluate(() => localStorage.setItem('bourse.language', 'de'));
  await page.setViewportSize({ width: 320, height: 640 });
  await page.goto('/');
  await look('de-320');
  await page.evaluate(() => localStorage.setItem('bourse.language', 'en'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
  await look('200');
  expect(findings).toEqual([]);
});
