import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { type Finding, measureLayout, settled, visit } from './layout';
import { fundedUserViaApi, login, newPhone, snap } from './support';

/**
 * Every main screen in each of the four languages, at 320 and 390 px wide, and in English
 * at 200 % text: no page scrolls sideways, no text or control runs off the screen or is cut, none
 * drawn over another, two-option controls fit, the service button covers nothing. A journey per
 * language, and one at 200 % text, walks them (in-app navigation, no reloads), measures, prints the
 * figures and then asserts.
 */
const PASSWORD = 'secret123';
const SYMBOL = 'TCS.NS';

const SCREENS: Array<{ name: string; path: string }> = [
  { name: 'Home', path: '/' },
  { name: 'Markets', path: '/markets' },
  { name: 'Watchlists', path: '/watchlists' },
  { name: 'Holdings', path: '/trade' },
  { name: 'Positions', path: '/trade/positions' },
  { name: 'Account', path: '/account' },
  { name: 'StockDetail', path: `/stock/${SYMBOL}/IN/${encodeURIComponent('Tata Consultancy Services')}` },
  {
    name: 'StockTrading',
    path: `/stock/trading/${SYMBOL}/IN/${encodeURIComponent('Tata Consultancy Services')}`,
  },
  { name: 'BlockTrading', path: '/block-trading' },
  { name: 'Qip', path: '/qip' },
  { name: 'Ipo', path: '/ipo' },
  { name: 'FundInvestment', path: '/fund-investment' },
  // The seed's first fund (the liquid fund) on the e2e server's fresh database.
  { name: 'FundDetail', path: '/fund-investment/1' },
  { name: 'FundOrders', path: '/fund-investment/orders' },
  { name: 'Forex', path: '/forex' },
  { name: 'Futures', path: '/futures' },
  { name: 'Records', path: '/records' },
  { name: 'AccountChanges', path: '/account/changes' },
  { name: 'Recharge', path: '/recharge' },
  { name: 'Withdraw', path: '/withdraw' },
  { name: 'Loan', path: '/loan' },
  { name: 'News', path: '/news' },
  { name: 'Settings', path: '/settings' },
  { name: 'CustomerService', path: '/customer-service' },
];

const LANGUAGES = ['en', 'zh', 'es', 'de'] as const;

/** With E2E_SCREENS: the screens to look at, light and dark, in English at 390 px, German at 320 and at 200 % text. */
const LOOK = new Set([
  'Home',
  'Markets',
  'StockDetail',
  'StockTrading',
  'BlockTrading',
  'Settings',
  'FundInvestment',
  'FundDetail',
  'FundOrders',
  'Qip',
  'Ipo',
  'Account',
  'AccountChanges',
  'Positions',
  'Recharge',
]);
const LOOK_AT = new Set(['en 390', 'de 320', 'en 200%']);

async function walk(page: Page, tag: string, results: Map<string, Finding[]>): Promise<void> {
  for (const screen of SCREENS) {
    await visit(page, screen.path);
    await settled(page);
    const found = await measureLayout(page);
    results.set(`${tag} ${screen.name}`, found);
    if (LOOK.has(screen.name) && LOOK_AT.has(tag))
      await snap(page, `layout-${screen.name}-${tag.replace(/[ %]+/g, '-').replace(/-$/, '')}`, {
        fullPage: true,
      });
  }
}

function table(results: Map<string, Finding[]>): string {
  const lines: string[] = [];
  const totals = new Map<string, number>();
  for (const [key, found] of results) {
    const tag = key.split(' ').slice(0, 2).join(' ');
    totals.set(tag, (totals.get(tag) ?? 0) + found.length);
    for (const f of found) lines.push(`${key}: ${f.kind}: ${f.what}`);
  }
  return [...[...totals].map(([tag, n]) => `layout ${tag}: ${n} findings`), ...lines].join('\n');
}

/** A user of their own with a position (so Holdings, Account and the ticket show one), signed in. */
async function signedInWithPosition(page: Page): Promise<void> {
  const phone = newPhone();
  const token = await fundedUserViaApi(page.request, phone, PASSWORD, 50_000);
  const price = (await (await page.request.get(`/api/v2/quote?symbol=${SYMBOL}`)).json()).data
    .price as number;
  const bought = await page.request.post('/api/stock/success/deal/buy', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: { mold: 'stock', tag: SYMBOL, count: 2, price },
  });
  expect((await bought.json()).msg).toBe('ok');
  // And an intraday one, so Positions shows its square-off line.
  const intraday = await page.request.post('/api/stock/success/deal/buy', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: { mold: 'stock', tag: SYMBOL, count: 1, price, product: 'intraday' },
  });
  expect((await intraday.json()).msg).toBe('ok');
  // A fund order (the seed's liquid fund), so Fund orders shows one, awaiting its NAV.
  const invested = await page.request.post('/api/stock/success/fund/purchase', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: { project_id: 1, amount: 5000 },
  });
  expect((await invested.json()).msg).toBe('ok');
  await login(page, phone, PASSWORD);
}

/** Prints the figures, then fails on any finding. */
function expectNoFindings(results: Map<string, Finding[]>): void {
  const report = table(results);
  console.log(report);
  test.info().annotations.push({ type: 'layout', description: report.split('\n').slice(0, 9).join('; ') });
  expect(report.split('\n').filter((l) => !l.startsWith('layout '))).toEqual([]);
}

// One journey per language (they run side by side), each at both widths.
for (const lng of LANGUAGES) {
  test(`${lng}: every main screen fits at 390 and 320 px`, async ({ page }) => {
    test.setTimeout(300_000);
    await signedInWithPosition(page);
    await page.evaluate((l) => localStorage.setItem('bourse.language', l), lng);
    await page.goto('/');
    await settled(page);
    const results = new Map<string, Finding[]>();
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: width === 320 ? 640 : 844 });
      await walk(page, `${lng} ${width}`, results);
    }
    expectNoFindings(results);
  });
}

test('every main screen fits at 200 % text (English, 390 px)', async ({ page }) => {
  test.setTimeout(300_000);
  await signedInWithPosition(page);
  // The phone's font size doubled (the root font size the app's rem sizes follow).
  await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
  const results = new Map<string, Finding[]>();
  await walk(page, 'en 200%', results);
  expectNoFindings(results);
});
