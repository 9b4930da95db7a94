import { expect, type Page, test } from '@playwright/test';
import { type Finding, measureLayout, settled, visit } from './layout';
import { BASE_URL } from './playwright.config';
import { fundedUserViaApi, login, newPhone, snap } from './support';

/**
 * Issue 31: every main screen in each of the four languages, at 320 and 390 px wide, and in English
 * at 200 % text: no page scrolls sideways, no text or control runs off the screen or is cut, none
 * drawn over another, two-option controls fit, the service button covers nothing. One journey
 * walks them all (in-app navigation, no reloads), measures, prints the figures and then asserts.
 */
const PASSWORD = 'secret123';
const SYMBOL = 'TCS.NS';

const SCREENS: Array<{ name: string; path: string }> = [
  { name: 'Home', path: '/' },
  { name: 'Markets', path: '/markets' },
  { name: 'Watchlists', path: '/watchlists' },
  { name: 'Holdings', path: '/trade' },
  { name: 'Account', path: '/account' },
  { name: 'StockDetail', path: `/stock/${SYMBOL}/IN/${encodeURIComponent('Tata Consultancy Services')}` },
  {
    name: 'StockTrading',
    path: `/stock/trading/${SYMBOL}/IN/${encodeURIComponent('Tata Consultancy Services')}`,
  },
  { name: 'BlockTrading', path: '/block-trading' },
  { name: 'Ipo', path: '/ipo' },
  { name: 'FundInvestment', path: '/fund-investment' },
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
const LOOK = new Set(['Home', 'Markets', 'StockDetail', 'StockTrading', 'BlockTrading', 'Settings']);
const LOOK_AT = new Set(['en 390', 'de 320', 'en 200%']);

/**
 * Screens whose large-text layout waits for their rebuild (issue 30: funds): the walk measures them
 * at every width and language, and at 200 % text once that has landed (the order ticket has).
 */
const LARGE_TEXT_PENDING = new Set(['FundInvestment']);

async function walk(
  page: Page,
  tag: string,
  results: Map<string, Finding[]>,
  skip: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const screen of SCREENS.filter((s) => !skip.has(s.name))) {
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

test('every main screen fits at 320 and 390 px in every language, and at 200 % text', async ({
  page,
  playwright,
}) => {
  test.setTimeout(600_000);
  const api = await playwright.request.newContext({ baseURL: BASE_URL });
  const phone = newPhone();
  const token = await fundedUserViaApi(api, phone, PASSWORD, 50_000);
  // A position, so Holdings, Account and the ticket show one.
  const price = (await (await api.get(`/api/v2/quote?symbol=${SYMBOL}`)).json()).data.price as number;
  const bought = await api.post('/api/stock/success/deal/buy', {
    headers: { token, 'Idempotency-Key': crypto.randomUUID() },
    data: { mold: 'stock', tag: SYMBOL, count: 2, price },
  });
  expect((await bought.json()).msg).toBe('ok');
  await api.dispose();
  await login(page, phone, PASSWORD);

  const results = new Map<string, Finding[]>();
  for (const lng of LANGUAGES) {
    await page.evaluate((l) => localStorage.setItem('bourse.language', l), lng);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await settled(page);
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: width === 320 ? 640 : 844 });
      await walk(page, `${lng} ${width}`, results);
    }
  }
  // 200 % text: the phone's font size doubled (the root font size the app's rem sizes follow).
  await page.evaluate(() => localStorage.setItem('bourse.language', 'en'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.addStyleTag({ content: 'html { font-size: 200% !important; }' });
  await walk(page, 'en 200%', results, LARGE_TEXT_PENDING);

  const report = table(results);
  console.log(report);
  test.info().annotations.push({ type: 'layout', description: report.split('\n').slice(0, 9).join('; ') });
  expect(report.split('\n').filter((l) => !l.startsWith('layout '))).toEqual([]);
});
