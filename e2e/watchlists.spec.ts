import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  cutOffTexts,
  expectAccessible,
  goOffline,
  goOnline,
  loginFresh,
  ops,
  serviceWorkerReady,
  snap,
} from './support';

/**
 * Watchlists: several named lists, add from the search field's instant results, row
 * actions by swipe and by long press, popular instruments in an empty list.
 */

/** A left swipe across a row with the pointer (the row follows the finger, then stays open). */
async function swipeLeft(page: Page, row: Locator): Promise<void> {
  const box = (await row.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 24, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + box.width - 24 - i * 35, y);
  await page.mouse.up();
}

test.describe('watchlists', () => {
  // Its offline spells rely on the service worker's copy of the shell.
  test.use({ serviceWorkers: 'allow' });
  test('watchlists: a second list, add from search, swipe to remove, long press', async ({
    page,
    context,
  }) => {
    await loginFresh(page, '/watchlists');
    await expect(page.getByText('No favourites yet')).toBeVisible();
    // An empty list offers popular instruments, each one tap away.
    const popular = page.getByRole('list', { name: 'Popular instruments' });
    await expect(popular.getByRole('listitem').first()).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'watchlists-empty');

    // A second list.
    await page.getByRole('button', { name: 'New list' }).click();
    const naming = page.getByRole('dialog', { name: 'New watchlist' });
    await naming.getByLabel('List name').fill('Tech');
    await naming.getByRole('button', { name: 'Save' }).click();
    await expect(naming).toBeHidden();
    const tabs = page.getByRole('tablist', { name: 'Watchlists' });
    await expect(tabs.getByRole('tab', { name: 'Tech' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: 'Tech', level: 2 })).toBeVisible();
    await expect(page.getByText('This list is empty')).toBeVisible();

    // Add from the search field's instant results.
    const search = page.getByLabel('Search instruments');
    await search.fill('apple');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByRole('button', { name: 'Add AAPL to Tech' }).click();
    await expect(results.getByRole('button', { name: 'Remove AAPL from Tech' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectAccessible(page);
    await snap(page, 'search');
    await search.fill('TCS');
    await results.getByRole('button', { name: 'Add TCS to Tech' }).click();
    await expect(results.getByRole('button', { name: 'Remove TCS from Tech' })).toBeVisible();
    await search.fill('');

    const rows = page.getByRole('list', { name: 'Tech' }).getByRole('listitem');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'AAPL' }).getByText(/^\d[\d,]*\.\d{2}$/)).toBeVisible();
    // Favourites stay as they were.
    await tabs.getByRole('tab', { name: 'Favourites' }).click();
    await expect(page.getByText('No favourites yet')).toBeVisible();
    await tabs.getByRole('tab', { name: 'Tech' }).click();
    await expect(rows).toHaveCount(2);
    await expectAccessible(page);
    await snap(page, 'watchlists');
    // 'Tata Consultancy Services' keeps its whole name beside the price and the change.
    expect((await cutOffTexts(page)).cut).toEqual([]);

    // Long press (the context-menu gesture) opens the row's actions as a sheet.
    await rows.filter({ hasText: 'TCS' }).click({ button: 'right' });
    const sheet = page.getByRole('dialog', { name: /TCS/ });
    for (const action of ['Buy', 'Sell', 'Chart', 'Alert', 'Remove'])
      await expect(sheet.getByRole('button', { name: action })).toBeVisible();
    await expectAccessible(page);
    await snap(page, 'watchlists-actions');
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();

    // Swipe left reveals the actions; Remove asks, then the row goes.
    await swipeLeft(page, rows.filter({ hasText: 'AAPL' }));
    await expect(rows.filter({ hasText: 'AAPL' })).toHaveAttribute('data-open', '1');
    await snap(page, 'watchlists-swipe');
    await page.getByRole('button', { name: 'Remove AAPL' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove from watchlist?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(rows).toHaveCount(1);
    await expect(rows.filter({ hasText: 'AAPL' })).toHaveCount(0);

    // Manage: move Tech first, and it stays first after a reload.
    await page.getByRole('button', { name: 'Manage lists' }).click();
    const manage = page.getByRole('dialog', { name: 'Manage lists' });
    await manage.getByRole('button', { name: 'Move Tech up' }).click();
    await expect(manage.getByRole('button', { name: 'Move Tech up' })).toBeDisabled();
    await expectAccessible(page);
    await snap(page, 'watchlists-manage');
    await manage.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await expect(tabs.getByRole('tab').first()).toHaveText('Tech');
    await expect(rows).toHaveCount(1);

    // The service worker installed before any offline spell: one cut off mid-install (its precache
    // fetches failing) is discarded, and the later offline reload would find no app to serve.
    await serviceWorkerReady(page);

    // Offline a removal waits in the outbox, marked pending, and is sent once back online.
    await goOffline(context);
    await rows.filter({ hasText: 'TCS' }).click({ button: 'right' });
    await page.getByRole('dialog', { name: /TCS/ }).getByRole('button', { name: 'Remove' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(rows.filter({ hasText: 'TCS' }).getByText('Pending sync')).toBeVisible();
    await goOnline(context);
    await expect(rows).toHaveCount(0);
    await expect(page.getByText('This list is empty')).toBeVisible();

    // Offline, renaming a list waits in the same outbox: shown at once, marked pending, kept across
    // a reload (the service worker serves the app), and sent once the connection is back.
    await goOffline(context);
    await page.getByRole('button', { name: 'Manage lists' }).click();
    await manage.getByRole('button', { name: 'Rename Tech' }).click();
    const renaming = page.getByRole('dialog', { name: 'Rename watchlist' });
    await renaming.getByLabel('List name').fill('Chips');
    await renaming.getByRole('button', { name: 'Save' }).click();
    await expect(renaming).toBeHidden();
    const chips = manage.getByRole('listitem').filter({ hasText: 'Chips' });
    await expect(chips.getByText('Pending sync')).toBeVisible();
    // And a new order, in the same outbox after the rename.
    await manage.getByRole('button', { name: 'Move Favourites up' }).click();
    await expect(manage.getByText('New order: pending sync')).toBeVisible();
    await expect(manage.getByRole('button', { name: 'Move Favourites up' })).toBeDisabled();
    await expectAccessible(page);
    await snap(page, 'watchlists-lists-pending');
    await manage.getByRole('button', { name: 'Done' }).click();
    await expect(tabs.getByRole('tab', { name: 'Chips' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: 'Chips', level: 2 })).toBeVisible();
    // A new list too: it has a temporary id on the device until the server answers.
    await page.getByRole('button', { name: 'New list' }).click();
    await naming.getByLabel('List name').fill('Pharma');
    await naming.getByRole('button', { name: 'Save' }).click();
    await expect(naming).toBeHidden();
    await expect(tabs.getByRole('tab', { name: 'Pharma' })).toHaveAttribute('aria-selected', 'true');
    const heading = page.getByRole('heading', { name: 'Pharma', level: 2 });
    await expect(heading).toBeVisible();
    await expect(page.getByText('This list is empty')).toBeVisible();
    await page.reload();
    await expect(tabs.getByRole('tab')).toHaveText(['Favourites', 'Chips', 'Pharma']);
    await expect(heading).toBeVisible();
    await expect(page.getByText('Pending sync')).toBeVisible();
    await snap(page, 'watchlists-list-pending');
    await goOnline(context);
    await expect(page.getByText('Pending sync')).toHaveCount(0);
    await expect(tabs.getByRole('tab')).toHaveText(['Favourites', 'Chips', 'Pharma']);
    // Still on the new list, now under the server's id.
    await expect(tabs.getByRole('tab', { name: 'Pharma' })).toHaveAttribute('aria-selected', 'true');
    // The server has the new name (asked directly, not through the app's device copy).
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('bourse.session') ?? '{}').state.token as string,
    );
    const answer = await page.request.get('/api/stock/success/watchlist/lists', { headers: { token } });
    const names = ((await answer.json()).data.rows as Array<{ name: string | null }>).map((r) => r.name);
    expect(names).toEqual([null, 'Chips', 'Pharma']);
  });
});

/** A 1×1 PNG: what the upload call checks is the file's magic number. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

test('onboarding: the Home checklist ticks through its five steps from the server state', async ({
  page,
}) => {
  const user = await loginFresh(page);
  const login = await page.request.post('/api/stock/user/login', {
    data: { user: user.phone, password: user.password },
  });
  const token = (await login.json()).data.token as string;
  const userId = await page.evaluate(
    () => JSON.parse(localStorage.getItem('bourse.session') ?? '{}').state.userInfo.id as number,
  );
  const post = async (url: string, data: object) => {
    const res = await page.request.post(`/api${url}`, {
      headers: { token, 'Idempotency-Key': crypto.randomUUID() },
      data,
    });
    const body = await res.json();
    expect(body.msg, `${url}: ${JSON.stringify(body)}`).toBe('ok');
    return body.data;
  };
  const upload = async () => {
    const res = await page.request.post('/api/stock/success/upload', {
      headers: { token },
      multipart: { file: { name: 'id.png', mimeType: 'image/png', buffer: PIXEL } },
    });
    return (await res.json()).data.url as string;
  };

  const card = page.getByTestId('onboarding');
  const step = (key: string) => card.locator(`[data-step="${key}"]`);
  await page.goto('/');
  await expect(card.getByRole('heading', { name: 'Get started' })).toBeVisible();
  await expect(card.getByText('0 of 5 done')).toBeVisible();
  await expect(step('identity').getByRole('link')).toHaveAttribute('href', '/settings/real-name');
  await expectAccessible(page);
  await snap(page, 'onboarding');

  // Identity: submitted (under review), then approved by the operator.
  await post('/stock/success/autonomy/add', {
    real_name: 'Asha Verma',
    id_number: 'P1234567',
    id_number_img: await upload(),
    id_number_img_two: await upload(),
  });
  await page.reload();
  await expect(step('identity')).toContainText('Under review');
  ops('kyc:approve', String(userId));
  await page.reload();
  await expect(step('identity')).toHaveAttribute('data-done', '1');
  await expect(card.getByText('1 of 5 done')).toBeVisible();

  await post('/stock/success/user/password/up', {
    type: 'transaction',
    is_first: true,
    fund_code_new: '246810',
  });
  await page.reload();
  await expect(step('tradePassword')).toHaveAttribute('data-done', '1');

  await post('/stock/success/bank/add', {
    bank: 'State Bank of India',
    branch_bank: 'Fort, Mumbai',
    bank_card: '123456789012',
    bank_user: 'Asha Verma',
    ifsc: 'SBIN0000300',
    // A card change needs the transaction password set above.
    stock_password: '246810',
  });
  await page.reload();
  await expect(step('bank')).toHaveAttribute('data-done', '1');
  await snap(page, 'onboarding-progress');

  // Funds tick once the sandbox settled the recharge (the checklist polls the server).
  await post('/stock/success/v2/recharge/add', { count: 5000 });
  await expect(step('funds')).toHaveAttribute('data-done', '1', { timeout: 30_000 });
  await expect(card.getByText('4 of 5 done')).toBeVisible();

  // The last step done, the checklist leaves Home.
  await post('/stock/success/collection/add', { symbol: 'TCS.NS' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Quick access' })).toBeVisible();
  await expect(card).toHaveCount(0);
});

test('depth and facts: five levels a side, ranges, market status, also in the order ticket', async ({
  page,
}) => {
  await loginFresh(page, '/stock/RELIANCE.NS/IN/Reliance%20Industries');
  const depth = page.getByTestId('depth');
  await expect(depth.getByRole('heading', { name: 'Market depth' })).toBeVisible();
  await expect(depth.getByRole('table', { name: 'Bids' }).locator('tbody tr')).toHaveCount(5);
  await expect(depth.getByRole('table', { name: 'Asks' }).locator('tbody tr')).toHaveCount(5);
  await expect(depth.getByText(/^Spread \d/)).toBeVisible();
  await expect(page.getByTestId('market-status')).toHaveText(/^(Open · closes|Closed · opens) /);
  await expect(page.getByRole('img', { name: /^Today’s range: low [\d,.]+, high/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^52-week range: low [\d,.]+, high/ })).toBeVisible();
  await depth.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await snap(page, 'depth');

  await page.getByRole('button', { name: 'Buy' }).click();
  await expect(page).toHaveURL(/\/stock\/trading\//);
  // The address changes first; stock detail (with its own depth) stays until the ticket has arrived.
  await expect(page.getByTestId('trade-price')).toBeVisible();
  await expect(
    page.getByTestId('depth').getByRole('table', { name: 'Asks' }).locator('tbody tr'),
  ).toHaveCount(5);
  await page.getByTestId('depth').scrollIntoViewIfNeeded();
  await snap(page, 'depth-ticket');
});
