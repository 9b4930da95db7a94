import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures';
import { expectAccessible, loginFresh, snap } from './support';

/*
 * The market screens against the real server and its simulator (fixed seed): Home's index cards
 * and news, Markets (region, index tabs, infinite list, search), stock detail (four periods with
 * candles and MAs, pan, crosshair, favourite, Buy/Sell links) and the forex, futures and treasury lists.
 */

/** How many rows a paged list shows, from its data attribute. */
async function rowsShown(page: Page, list: string): Promise<number> {
  return Number(await page.locator(`[data-rows]:has(ul[aria-label="${list}"])`).getAttribute('data-rows'));
}

async function scrollToEnd(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
}

/** The chart box of the period shown, once its candles are drawn. */
function chartBox(page: Page, period: string) {
  return page.locator(`[role="img"][data-period="${period}"][data-candles]`);
}

async function candles(page: Page, period: string): Promise<number> {
  await expect(chartBox(page, period)).toBeVisible();
  return Number(await chartBox(page, period).getAttribute('data-candles'));
}

test('markets: region, index tabs, infinite list and search', async ({ page }) => {
  await loginFresh(page);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Markets' })
    .click();
  await expect(page).toHaveURL(/\/markets/);
  await expect(page.getByRole('heading', { name: 'Markets', level: 1 })).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'Simulated market data' })).toBeVisible();

  const regions = page.getByRole('radiogroup', { name: 'Region' });
  await expect(regions.getByRole('radio', { name: 'India · NSE' })).toHaveAttribute('aria-checked', 'true');

  // Index tabs of the region, and the card of the one chosen.
  const tabs = page.getByRole('tablist', { name: 'Indices' });
  await expect(tabs.getByRole('tab', { name: 'NIFTY 50' })).toHaveAttribute('aria-selected', 'true');
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('link')).toContainText('NIFTY 50');
  await expect(panel.getByRole('link')).toContainText(/\d{2},\d{3}\.\d{2}/);
  await tabs.getByRole('tab', { name: 'NIFTY Bank' }).click();
  await expect(panel.getByRole('link')).toContainText('NIFTY Bank');

  // 10 a page; the next page comes when the end of the list is near.
  const nse = 'Stocks · India · NSE';
  const list = page.getByRole('list', { name: nse });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  await snap(page, 'markets');
  await expectAccessible(page);
  // An instrument list keeps the floating service button out: it would cover the % column.
  await expect(page.getByRole('link', { name: /^Customer service/ })).toHaveCount(0);
  // Tabular figures and the app's own font stack in the list (prices line up in their column).
  const look = await list
    .getByRole('listitem')
    .first()
    .evaluate((row) => {
      const cs = getComputedStyle(row);
      return { numbers: cs.fontVariantNumeric, font: cs.fontFamily.split(',')[0] };
    });
  expect(look).toEqual({ numbers: 'tabular-nums', font: 'system-ui' });
  await scrollToEnd(page);
  await expect(list.getByRole('listitem')).toHaveCount(20);
  await scrollToEnd(page);
  await expect(list.getByRole('listitem')).toHaveCount(30);
  await expect.poll(() => rowsShown(page, nse)).toBe(30);

  // Another region starts again from its first page.
  await regions.getByRole('radio', { name: 'United States' }).click();
  await expect(page).toHaveURL(/region=US/);
  await expect(tabs.getByRole('tab', { name: 'S&P 500' })).toHaveAttribute('aria-selected', 'true');
  const us = page.getByRole('list', { name: 'Stocks · United States' });
  await expect(us.getByRole('listitem')).toHaveCount(10);
  await expect(us.getByRole('link').first()).toHaveAttribute('href', /^\/stock\/[A-Z.]+\/US\//);

  // The search field is always in view: name or code, across every market, 300 ms after typing.
  const field = page.getByRole('searchbox', { name: 'Search instruments' });
  await field.pressSequentially('relian');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('link', { name: /Reliance/ }).first()).toBeVisible();
  // The results take the place of the region's lists.
  await expect(us).toHaveCount(0);
  await snap(page, 'markets-search');
  await expectAccessible(page);
  await field.fill('zzqx');
  await expect(page.getByText('No instrument matches "zzqx"')).toBeVisible();
  // Not only stocks: a futures contract and a currency pair, each linking to its detail with its star.
  await field.fill('gold');
  const gold = results.getByRole('listitem').filter({ has: page.getByRole('link', { name: /^Gold GC / }) });
  await expect(gold.getByRole('link')).toHaveAttribute('href', /^\/stock\/GC%3DF\//);
  await expect(gold.getByRole('button', { name: 'Favourite GC' })).toBeVisible();
  await snap(page, 'markets-search-futures');
  await field.fill('EURUSD');
  await expect(results.getByRole('link', { name: /^EUR\/USD EURUSD / })).toBeVisible();
  // Clearing the field brings the region's lists back.
  await field.fill('');
  await expect(us.getByRole('listitem')).toHaveCount(10);
  await field.fill('AAPL');
  await results.getByRole('link', { name: /Apple/ }).first().click();
  await expect(page).toHaveURL(/\/stock\/AAPL\/US\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Apple');
  // Back: the same search and its results.
  await page.goBack();
  await expect(field).toHaveValue('AAPL');
  await expect(results.getByRole('link', { name: /Apple/ }).first()).toBeVisible();
});

test('stock detail: four periods with candles and MAs, pan, favourite, buy and sell', async ({ page }) => {
  await loginFresh(page, '/markets');
  const list = page.getByRole('list', { name: 'Stocks · India · NSE' });
  const first = list.getByRole('link').first();
  const name = (await first.locator('span > span').first().textContent())!;
  await first.click();
  await expect(page).toHaveURL(/\/stock\/[^/]+\/IN\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
  // Display codes drop .NS/.BO.
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText('.NS');
  await expect(page.getByTestId('price')).toHaveText(/^\d[\d,]*\.\d{2}$/);
  for (const label of ['Open', 'High', 'Low', 'Prev. close']) {
    await expect(page.locator('dt', { hasText: label }).first().locator('+ dd')).toHaveText(/\d\.\d{2}$/);
  }

  // Day K by default: about 200 candles of five years, with the three MAs.
  const tabs = page.getByRole('tablist', { name: 'Chart period' });
  await expect(tabs.getByRole('tab', { name: 'Day K' })).toHaveAttribute('aria-selected', 'true');
  const day = await candles(page, '1d');
  expect(day).toBeGreaterThanOrEqual(150);
  expect(day).toBeLessThanOrEqual(201);
  expect(Number(await chartBox(page, '1d').getAttribute('data-total'))).toBeGreaterThan(day);
  const legend = page.locator('figcaption[data-ma="5,10,20"]');
  for (const ma of ['MA5', 'MA10', 'MA20'])
    await expect(legend).toContainText(new RegExp(`${ma} \\d[\\d,]*\\.\\d{2}`));
  await expect(page.locator('dl[aria-label="Latest candle"]')).toContainText(/O\d.*H\d.*L\d.*C\d/s);
  await snap(page, 'stock-detail');
  await expectAccessible(page);

  // Dragging right shows older candles; the page itself does not move. The depth ladder and the
  // 52-week bar above the chart load on their own poll: measure the chart once they are in, in view.
  await expect(page.getByTestId('depth')).toBeVisible();
  await expect(page.getByRole('img', { name: /^52-week range:/ })).toBeVisible();
  const box = chartBox(page, '1d');
  await box.scrollIntoViewIfNeeded();
  // The chart has taken a live price: its latest candle closes at the header's price. The first
  // live price may open today's candle, and a new candle ends a crosshair (StockChart: other bars
  // under it); on a loaded machine it came in the middle of the scrub below.
  const latestClose = page
    .locator('dl[aria-label="Latest candle"] div', { has: page.locator('dt', { hasText: /^C$/ }) })
    .locator('dd');
  await expect
    .poll(async () => (await latestClose.textContent()) === (await page.getByTestId('price').textContent()))
    .toBe(true);
  const from = Number(await box.getAttribute('data-from'));
  const b = (await box.boundingBox())!;
  const scrollBefore = await page.evaluate(() => window.scrollY);
  await page.mouse.move(b.x + b.width * 0.3, b.y + b.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width * 0.8, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => Number(await box.getAttribute('data-from'))).toBeLessThan(from);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
  await expect(box).toHaveCSS('touch-action', 'none');
  // Zooming in shows fewer candles, never under 20.
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  for (let i = 0; i < 20; i++) await page.mouse.wheel(0, -100);
  await expect.poll(async () => Number(await box.getAttribute('data-candles'))).toBeLessThanOrEqual(21);
  expect(Number(await box.getAttribute('data-candles'))).toBeGreaterThanOrEqual(20);

  // The crosshair (no timer decides): a finger down on the chart inspects the candle under it and
  // the header shows that candle; moving up or down first makes it a scrub, after which the
  // crosshair follows the finger across the candles while the chart stays put; lifting it returns
  // the header to live. (A sideways drag pans, as above.)
  const price = page.getByTestId('price');
  const scrubTime = page.getByTestId('scrub-time');
  const ohlc = page.locator('dl[data-candle]');
  const crossAt = async () => Number(await box.getAttribute('data-cross'));
  const fromBeforeScrub = await box.getAttribute('data-from');
  await page.mouse.move(b.x + b.width * 0.15, b.y + b.height * 0.4);
  await page.mouse.down();
  await expect(box).toHaveAttribute('data-cross', /^\d+$/);
  await expect(price).toHaveAttribute('data-scrub', '1');
  await expect(scrubTime).toHaveText(/\d/);
  await expect(ohlc).toHaveAttribute('aria-label', /^Candle of \d/);
  await page.mouse.move(b.x + b.width * 0.15, b.y + b.height * 0.6, { steps: 2 });
  const scrubStart = await crossAt();
  await page.mouse.move(b.x + b.width * 0.75, b.y + b.height * 0.6, { steps: 6 });
  await expect.poll(crossAt).toBeGreaterThan(scrubStart);
  // The header shows the candle under the crosshair, both read together (a live candle may move
  // the index between two separate reads).
  await expect
    .poll(async () => {
      const [candle, cross] = [await ohlc.getAttribute('data-candle'), await box.getAttribute('data-cross')];
      return candle !== null && candle === cross;
    })
    .toBe(true);
  expect(await box.getAttribute('data-from')).toBe(fromBeforeScrub);
  await snap(page, 'stock-detail-crosshair');
  await page.mouse.up();
  await expect(box).not.toHaveAttribute('data-cross');
  await expect(price).not.toHaveAttribute('data-scrub');
  await expect(scrubTime).toBeEmpty();
  await expect(ohlc).toHaveAttribute('aria-label', 'Latest candle');
  // Keyboard: the arrows move the crosshair a candle at a time from the newest in view; Escape ends it.
  await box.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(box).toHaveAttribute('data-cross', /^\d+$/);
  const keyed = await crossAt();
  await page.keyboard.press('ArrowLeft');
  await expect(box).toHaveAttribute('data-cross', String(keyed - 1));
  await expect(price).toHaveAttribute('data-scrub', '1');
  await page.keyboard.press('Escape');
  await expect(box).not.toHaveAttribute('data-cross');
  await expect(price).not.toHaveAttribute('data-scrub');

  // The other periods.
  await tabs.getByRole('tab', { name: 'Real time' }).click();
  expect(await candles(page, '1m')).toBeGreaterThan(0);
  await expect(legend).toContainText(/Avg\. price \d/);
  await tabs.getByRole('tab', { name: 'Week K' }).click();
  expect(await candles(page, '1wk')).toBeGreaterThan(20);
  await expect(legend).toContainText(/MA20 \d/);
  await tabs.getByRole('tab', { name: 'Month K' }).click();
  expect(await candles(page, '1mo')).toBeGreaterThan(20);
  await tabs.getByRole('tab', { name: 'Day K' }).click();
  expect(await candles(page, '1d')).toBeGreaterThan(150);

  // Same market list (market variant).
  await expect(page.getByRole('heading', { name: 'More in this market' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'More in this market' }).getByRole('listitem').first(),
  ).toBeVisible();

  // Favourite: on, kept by the server, off again.
  const star = page.getByTestId('favourite');
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await expect(star).toHaveAccessibleName('Remove from watchlist');
  await expect(page.getByText('Pending sync')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('favourite')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('favourite').click();
  await expect(page.getByTestId('favourite')).toHaveAttribute('aria-pressed', 'false');

  // Offline the star still toggles, marked pending until the server confirms it back online.
  const context = page.context();
  await context.setOffline(true);
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
  await page.getByTestId('favourite').click();
  await expect(page.getByTestId('favourite')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Pending sync')).toBeVisible();
  await context.unroute('**/*');
  await context.setOffline(false);
  await expect(page.getByText('Pending sync')).toHaveCount(0, { timeout: 20_000 });
  await page.reload();
  await expect(page.getByTestId('favourite')).toHaveAttribute('aria-pressed', 'true');

  // Buy and Sell open the trading screen.
  const url = page.url();
  await page.getByRole('button', { name: 'Sell' }).click();
  await expect(page).toHaveURL(/\/stock\/trading\/[^/]+\/IN\/.+\?type=sell$/);
  await page.goto(url);
  await page.getByRole('button', { name: 'Buy' }).click();
  await expect(page).toHaveURL(/\/stock\/trading\/[^/]+\/IN\/.+\?type=buy$/);
});

test('forex: code search, empty and no match, infinite list, positions', async ({ page }) => {
  await loginFresh(page, '/forex');
  await expect(page.getByRole('heading', { name: 'Forex', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Positions' })).toHaveAttribute(
    'href',
    '/trade-no-nav/forex/1',
  );
  const list = page.getByRole('list', { name: 'Forex' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await expect(list.getByRole('listitem').first()).toContainText(/\d\.\d{4}/);
  await expect(list.getByRole('listitem').first()).toContainText(/[+-]?\d+\.\d{2}%/);
  await snap(page, 'forex');
  await expectAccessible(page);
  await scrollToEnd(page);
  await expect(list.getByRole('listitem')).toHaveCount(20);

  // Offline the prices stay, labelled as last known with their time.
  await page.context().setOffline(true);
  await page.context().route('**/*', (route) => route.abort('internetdisconnected'));
  await expect(page.getByText('Last known').first()).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveCount(20);
  await page.context().unroute('**/*');
  await page.context().setOffline(false);
  await expect(page.getByText('Last known')).toHaveCount(0);

  const search = page.getByLabel('Currency pair code');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('Please enter a code to search')).toBeVisible();
  await search.fill('eur');
  await search.press('Enter');
  await expect(list.getByRole('listitem').first()).toContainText('EUR');
  for (const row of await list.getByRole('listitem').all()) await expect(row).toContainText('EUR');
  await search.fill('QQQ');
  await search.press('Enter');
  await expect(page.getByText('No matching currency pairs found')).toBeVisible();
});

for (const screen of [
  {
    path: '/futures',
    title: 'Futures',
    search: 'Futures code',
    positions: '/trade-no-nav/futures/ok',
    noMatch: 'No matching futures found',
    code: 'GC',
    name: 'Gold',
    market: 'FUTURE',
  },
  {
    path: '/treasury-debt',
    title: 'Treasury debt',
    search: 'Treasury debt code',
    positions: '/trade-no-nav/treasury/ok',
    noMatch: 'No matching treasury debt found',
    code: 'ZN',
    name: '10-Year T-Note Futures',
    market: 'CGI',
  },
]) {
  test(`${screen.title.toLowerCase()}: search, empty and no match, open detail`, async ({ page }) => {
    await loginFresh(page, screen.path);
    await expect(page.getByRole('heading', { name: screen.title, level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Positions' })).toHaveAttribute('href', screen.positions);
    const list = page.getByRole('list', { name: screen.title });
    const firstRow = list.getByRole('listitem').first();
    await expect(firstRow).toContainText(/\d\.\d/);
    await snap(page, screen.path.slice(1));
    await expectAccessible(page);

    const search = page.getByLabel(screen.search);
    await search.press('Enter');
    await expect(page.getByText('Please enter a code to search')).toBeVisible();
    await search.fill('zzqx');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText(screen.noMatch)).toBeVisible();

    await search.fill(screen.code);
    await search.press('Enter');
    const hit = list.getByRole('link').filter({ hasText: screen.name }).first();
    await expect(hit).toBeVisible();
    await hit.click();
    await expect(page).toHaveURL(new RegExp(`/stock/[^/]+/${screen.market}/`));
    await expect(page.getByRole('heading', { level: 1 })).toContainText(screen.name);
    expect(await candles(page, '1d')).toBeGreaterThan(0);
  });
}

test('home: live index cards per category and the latest news unless INR', async ({ page, server }) => {
  await loginFresh(page);
  // The header's search opens Markets with its search field ready to type in.
  await page.getByRole('button', { name: 'Search stocks' }).click();
  await expect(page.getByRole('searchbox', { name: 'Search instruments' })).toBeFocused();
  await page.goBack();
  const cards = page.getByRole('list', { name: 'Market indices' }).getByRole('link');
  await expect(cards).toHaveCount(3);
  await expect(cards.first()).toContainText('NIFTY 50');
  await expect(cards.first()).toContainText(/[+-]?\d+\.\d{2}%/);
  await expect(cards.first().locator('svg path').first()).toHaveAttribute('d', /^M/);
  // INR (the demo's currency): no news on Home.
  await expect(page.getByRole('heading', { name: 'Latest news' })).toHaveCount(0);
  await snap(page, 'home');
  await expectAccessible(page);
  await cards.nth(2).click();
  await expect(page).toHaveURL(/\/stock\/v2\/%5EGSPC\//);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('S&P 500');
  // An index is not traded here.
  await expect(page.getByRole('button', { name: 'Buy' })).toHaveCount(0);

  // Another currency: the 3 latest news, each opening its article.
  const db = new Database(server.databaseUrl.replace(/^sqlite:/, ''));
  const setUnit = (unit: string) =>
    db.prepare("UPDATE config SET value = ? WHERE tag = 'currency_unit'").run(unit);
  try {
    setUnit('USD');
    await page.goto('/');
    const news = page.getByRole('region', { name: 'Latest news' });
    await expect(page.getByRole('heading', { name: 'Latest news' })).toBeVisible();
    const items = news.getByRole('listitem');
    await expect(items).toHaveCount(3);
    await snap(page, 'home-news');
    await expectAccessible(page);
    const href = await items.first().getByRole('link').getAttribute('href');
    expect(href).toMatch(/^\/news\/\d+$/);
    await items.first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
  } finally {
    setUnit('INR');
    db.close();
  }
});
