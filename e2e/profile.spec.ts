import zlib from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  expectAccessible,
  expectClearOfService,
  goOffline,
  goOnline,
  login,
  loginFresh,
  ops,
  runTool,
  snap,
  toast,
} from './support';

/*
 * The profile half of the account area against the real server: settings, login and transaction
 * passwords, real-name verification with photos shrunk and uploaded by the worker, bank cards,
 * news paging and a hostile article, and the customer-service chat with an operator's reply and a
 * message written offline. Each journey owns a fresh user.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real RGB PNG of w×h in one colour (enough for the browser to decode and the server to sniff). */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function session(page: Page): Promise<{ token: string; id: number }> {
  return page.evaluate(() => {
    const s = JSON.parse(localStorage.getItem('bourse.session') ?? '{}');
    return { token: s.state.token, id: s.state.userInfo.id };
  });
}

test('settings lists every account setting; colours and language sheets work', async ({ page }) => {
  await loginFresh(page, '/settings');
  for (const name of [/Login password/, /Transaction password/, /Real-name verification/, /Bank cards/]) {
    await expect(page.getByRole('link', { name }).or(page.getByRole('button', { name }))).toBeVisible();
  }
  await expect(page.getByRole('button', { name: /Transaction password\s*Not set/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Real-name verification\s*Not verified/ })).toBeVisible();
  await snap(page, 'profile-settings');
  await expectAccessible(page);

  await page.getByRole('button', { name: /Price colours/ }).click();
  await page.getByRole('button', { name: 'Red up, green down' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-updown', 'red-up');
  await expect(page.getByRole('button', { name: /Price colours\s*Red up/ })).toBeVisible();

  await page.getByRole('button', { name: /Language/ }).click();
  await expect(page.getByRole('dialog', { name: 'Language' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('dialog', { name: 'Log out?' })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('login password: SPEC messages, save rules, other sessions end, the new password logs in', async ({
  page,
  browser,
}) => {
  const user = await loginFresh(page);
  // A second device signed in as the same user.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await login(otherPage, user.phone, user.password);

  await page.goto('/settings');
  await page.getByRole('link', { name: /Login password/ }).click();
  await expect(page).toHaveURL(/\/settings\/login-password$/);
  const current = page.getByLabel('Current password', { exact: true });
  const next = page.getByLabel('New password', { exact: true });
  const confirm = page.getByLabel('Confirm new password', { exact: true });
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();

  await next.focus();
  await next.blur();
  await expect(page.getByText('Please enter new password')).toBeVisible();
  await confirm.focus();
  await confirm.blur();
  await expect(page.getByText('Please confirm your password')).toBeVisible();

  await current.fill(user.password);
  await next.fill('abc');
  await confirm.fill('abd');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(save).toBeDisabled();
  await confirm.fill('abc');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();

  await current.fill('wrong-one');
  await next.fill('newpass99');
  await confirm.fill('newpass99');
  await save.click();
  await expect(page.getByText('Old password is incorrect')).toBeVisible();
  await snap(page, 'profile-login-password');
  await expectAccessible(page);

  await current.fill(user.password);
  await save.click();
  await expect(page.getByText('Password changed')).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);

  // This device stays signed in; the other one is sent to login on its next call.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await otherPage.goto('/settings');
  await expect(otherPage).toHaveURL(/\/login$/);
  await otherPage.getByLabel('Phone number').fill(user.phone);
  await otherPage.getByLabel('Password', { exact: true }).fill(user.password);
  await otherPage.getByRole('button', { name: 'Log in' }).click();
  await expect(otherPage.getByText('Invalid account password')).toBeVisible();
  await otherPage.getByLabel('Password', { exact: true }).fill('newpass99');
  await otherPage.getByRole('button', { name: 'Log in' }).click();
  // Signed in again: home, or the page the ended session left (the guard decides which).
  await expect(otherPage).toHaveURL(/:\d+\/(settings)?$/);
  await other.close();
});

test('transaction password: first set, then changed with the current one', async ({ page }) => {
  await loginFresh(page, '/settings');
  await page.getByRole('button', { name: /Transaction password\s*Not set/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Set transaction password' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel('Enter 6-digit transaction password').fill('123');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('Please enter 6-digit transaction password')).toBeVisible();
  await dialog.getByLabel('Enter 6-digit transaction password').fill('135790');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('Enter it again to confirm').fill('135791');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Passwords do not match')).toBeVisible();
  await dialog.getByLabel('Enter it again to confirm').fill('135790');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Transaction password set')).toBeVisible();
  await expect(page.getByRole('button', { name: /Transaction password\s*Set/ })).toBeVisible();

  await page.getByRole('button', { name: /Transaction password\s*Set/ }).click();
  const change = page.getByRole('dialog', { name: 'Change transaction password' });
  await change.getByLabel('Current transaction password').fill('000000');
  await change.getByRole('button', { name: 'Next' }).click();
  await change.getByLabel('Enter 6-digit transaction password').fill('246802');
  await change.getByRole('button', { name: 'Next' }).click();
  await change.getByLabel('Enter it again to confirm').fill('246802');
  await change.getByRole('button', { name: 'Confirm' }).click();
  // A wrong current code starts the dialog over.
  await expect(change.getByText('Incorrect password')).toBeVisible();
  await change.getByLabel('Current transaction password').fill('135790');
  await change.getByRole('button', { name: 'Next' }).click();
  await change.getByLabel('Enter 6-digit transaction password').fill('246802');
  await change.getByRole('button', { name: 'Next' }).click();
  await change.getByLabel('Enter it again to confirm').fill('246802');
  await change.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Transaction password changed')).toBeVisible();
});

test('real-name: non-image refused, two photos uploaded, then stamped and locked', async ({ page }) => {
  await loginFresh(page, '/settings');
  await page.getByRole('link', { name: /Real-name verification/ }).click();
  await expect(page.getByRole('heading', { name: 'Real-name verification' })).toBeVisible();
  await expectAccessible(page);

  // Disabled until the form is valid (the password screens' rule), and a tap says what is missing.
  const submitKyc = page.getByRole('button', { name: 'Submit for verification' });
  await expect(submitKyc).toHaveAttribute('aria-disabled', 'true');
  await submitKyc.click({ force: true });
  await expect(page.getByText('Please enter your name')).toBeVisible();
  await expect(page.getByText('Please upload an identification photo')).toHaveCount(2);

  await page.getByLabel('Full name').fill('Asha Verma');
  await page.getByLabel('ID type').selectOption('passport');
  await page.getByLabel('ID number').fill('P1234567');
  // A text file named like a picture: the worker's decode is what refuses it.
  await page.getByTestId('kyc-front').setInputFiles({
    name: 'front.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not really a picture'),
  });
  await expect(page.getByText('Please select an image file')).toBeVisible();
  await page.getByTestId('kyc-back').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hello'),
  });
  await expect(page.getByText('Please select an image file')).toHaveCount(2);

  // A photo larger than 1200 px is shrunk by the worker before it is uploaded.
  await page
    .getByTestId('kyc-front')
    .setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: png(1600, 1000, [30, 90, 200]) });
  await page
    .getByTestId('kyc-back')
    .setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: png(320, 200, [200, 120, 30]) });
  await expect(page.getByText('Uploaded')).toHaveCount(2);
  await expect(submitKyc).toBeEnabled();
  const front = page.getByRole('img', { name: 'Front side photo' });
  await expect(front).toBeVisible();
  expect(await front.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
    1200, 750,
  ]);
  await snap(page, 'profile-real-name-form');

  await page.getByRole('button', { name: 'Submit for verification' }).click();
  await expect(page.getByTestId('kyc-stamp')).toHaveText(/Under review/i);
  await expect(page.getByText('Asha Verma')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit for verification' })).toHaveCount(0);
  await snap(page, 'profile-real-name-locked');
  await expectAccessible(page);

  // The state is read again on entry: still locked.
  await page.reload();
  await expect(page.getByTestId('kyc-stamp')).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByRole('link', { name: /Real-name verification\s*Under review/ })).toBeVisible();

  // The operator rejects it: the form opens again with the reason.
  ops('kyc:reject', String((await session(page)).id), 'The back photo is unreadable');
  await page.reload();
  await page.getByRole('link', { name: /Real-name verification\s*Rejected/ }).click();
  await expect(page.getByText('The back photo is unreadable')).toBeVisible();
  await expect(page.getByLabel('Full name')).toHaveValue('Asha Verma');
  await expect(page.getByLabel('ID number')).toHaveValue('');
  // The id number comes back masked: it is typed again before the form is ready.
  await expect(page.getByRole('button', { name: 'Submit for verification' })).toBeDisabled();
  await page.getByLabel('ID number').fill('P1234567');
  await expect(page.getByTestId('kyc-stamp')).toHaveCount(0);
});

test('bank cards: empty state, validation, add, edit, masked list', async ({ page }) => {
  await loginFresh(page, '/settings/bank-cards');
  await expect(page.getByText('No bank cards available')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Add bank card' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add bank card' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('This field is required')).toHaveCount(5);
  await dialog.getByLabel('Bank name').fill('State Bank of India');
  await dialog.getByLabel('Branch').fill('Andheri East');
  await dialog.getByLabel('Card number').fill('1234 5678 9012 3456');
  await dialog.getByLabel('Account holder').fill('Asha Verma');
  await dialog.getByLabel('IFSC').fill('SBIN123');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Please enter a valid IFSC code')).toBeVisible();
  await dialog.getByLabel('IFSC').fill('sbin0001234');
  await snap(page, 'profile-bank-card-add');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  // A card decides where payouts go: it needs the transaction password, set first by a new user.
  const setCode = page.getByRole('dialog', { name: 'Set transaction password' });
  await setCode.getByLabel('Enter 6-digit transaction password').fill('135790');
  await setCode.getByRole('button', { name: 'Next' }).click();
  await setCode.getByLabel('Enter it again to confirm').fill('135790');
  await setCode.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bank card added')).toBeVisible();
  const list = page.getByRole('list', { name: 'Bank cards' });
  await expect(list.getByText('State Bank of India')).toBeVisible();
  await expect(list.getByText('Card ending in 3456')).toBeAttached();
  await expect(list.getByText('•••• 3456', { exact: true })).toBeVisible();
  await expect(list).not.toContainText('1234 5678');
  await expect(list.getByText('SBIN0001234')).toBeVisible();

  await list.getByRole('button', { name: 'Edit State Bank of India card ending in 3456' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit bank card' });
  await expect(edit.getByLabel('Branch')).toHaveValue('Andheri East');
  await edit.getByLabel('Branch').fill('Powai');
  await edit.getByRole('button', { name: 'Save' }).click();
  // The masked number is not enough: the whole number is asked for again.
  await expect(edit.getByText('This field is required')).toBeVisible();
  await edit.getByLabel('Card number').fill('1234567890123456');
  await edit.getByRole('button', { name: 'Save' }).click();
  const ask = page.getByRole('dialog', { name: 'Enter transaction password' });
  await expect(ask).toContainText('Confirm the bank card with your transaction password.');
  await ask.getByLabel('Transaction password').fill('000000');
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(ask.getByText('Incorrect password')).toBeVisible();
  // Nothing changed while the code was wrong.
  await expect(list.getByText('Andheri East')).toBeAttached();
  await expectAccessible(page);
  await snap(page, 'profile-bank-card-code');
  await ask.getByLabel('Transaction password').fill('135790');
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Bank card updated successfully')).toBeVisible();
  await expect(list.getByText('Powai')).toBeVisible();
  await expect(page.getByText('Bank card updated successfully')).toBeHidden();
  await snap(page, 'profile-bank-cards');
});

test('news: real paging with page sizes, and an article whose script never runs', async ({ page }) => {
  await loginFresh(page);
  const stamp = Date.now();
  // Enough articles for a second page of 10 whatever else this run published.
  const articles = Array.from({ length: 6 }, (_, i) => ({
    title: `Market wrap ${stamp} #${i + 1}`,
    subhead: `Session ${i + 1} in brief`,
    html: `<p>Wrap ${i + 1}.</p>`,
  }));
  articles.push({
    title: `Hostile ${stamp}`,
    subhead: 'Nothing here may execute',
    html: `<p>Plain words survive.</p><img src="/news/nifty-recovery.jpg" onerror="window.__pwned=1"><script>window.__pwned=2</script><a href="javascript:window.__pwned=3">link</a>`,
  });
  runTool('e2e/tools/publish-news.ts', [], JSON.stringify(articles));
  const count = (await (await page.request.get('/api/stock/new/list?page=1&limit=10')).json()).data
    .count as number;
  expect(count).toBeGreaterThan(10);

  await page.goto('/news');
  const items = page.getByRole('list', { name: 'News' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  const pages10 = Math.ceil(count / 10);
  await expect(page.getByText(`Page 1 of ${pages10}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  // One date and time format (en: day first, 24-hour clock), as on every other screen.
  await expect(items.first()).toContainText(/\d{2}\/\d{2}\/20\d{2}, [0-2]\d:[0-5]\d\b/);
  await snap(page, 'profile-news');
  await expectAccessible(page);
  await expectClearOfService(page, page.getByRole('button', { name: 'Next' }));
  const firstTitle = await items.first().textContent();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(`Page 2 of ${pages10}`)).toBeVisible();
  await expect(items.first()).not.toHaveText(firstTitle!);
  await expect(items).toHaveCount(Math.min(10, count - 10));

  await page.getByRole('radio', { name: '20' }).click();
  await expect(items).toHaveCount(Math.min(20, count));
  // Page links only when there is another page (no "Page 1 of 1" under a whole list).
  const pages20 = Math.ceil(count / 20);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toHaveCount(pages20 > 1 ? 1 : 0);
  if (pages20 > 1) await expect(page.getByText(`Page 1 of ${pages20}`)).toBeVisible();

  await page.getByRole('link', { name: new RegExp(`Hostile ${stamp}`) }).click();
  await expect(page.getByRole('heading', { name: `Hostile ${stamp}` })).toBeVisible();
  await expect(page.getByText('Nothing here may execute')).toBeVisible();
  await expect(page.getByText('Plain words survive.')).toBeVisible();
  const body = page.locator('article');
  await expect(body.locator('script')).toHaveCount(0);
  await expect(body.locator('[onerror]')).toHaveCount(0);
  await expect(body.locator('a[href^="javascript"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await snap(page, 'profile-news-article');
  await expectAccessible(page);

  // Once seen, the list and the article stay readable offline, labelled as last known.
  await goOffline(page.context());
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('link', { name: new RegExp(`Hostile ${stamp}`) })).toBeVisible();
  await expect(page.getByText('Last known', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(`Hostile ${stamp}`) }).click();
  await expect(page.getByText('Plain words survive.')).toBeVisible();
  await expect(page.getByText('Last known', { exact: true })).toBeVisible();
  await goOnline(page.context());

  await page.goto('/news/999999');
  await expect(page.getByText('Load failed, retry')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('customer service: send, operator reply with unread badge, offline message queued then delivered', async ({
  page,
  context,
}) => {
  await loginFresh(page);
  const me = await session(page);
  // The welcome came with the account, once, and asks for no attention: no unread badge anywhere.
  await page.goto('/settings');
  await expect(page.getByRole('link', { name: 'Customer service', exact: true })).toBeVisible();
  await page.goto('/customer-service');
  const log = page.getByRole('list', { name: 'Conversation' });
  await expect(log.getByText(/^Welcome to Bourse!/)).toHaveCount(1);
  await expectAccessible(page);
  const input = page.getByLabel('Message', { exact: true });
  await input.fill('Hello, how long does a withdrawal take?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log.getByText('Hello, how long does a withdrawal take?')).toBeVisible();
  await expect(page.getByTestId('chat-pending')).toHaveCount(0);

  // The reply arrives while the user is elsewhere: the floating button counts it.
  await page.goto('/settings');
  ops('chat:reply', String(me.id), 'Usually within 24 hours.');
  const button = page.getByRole('link', { name: /Customer service, 1 unread/ });
  await expect(button).toBeVisible({ timeout: 15_000 });
  await button.click();
  await expect(log.getByText('Usually within 24 hours.')).toBeVisible();
  await snap(page, 'profile-chat');
  await expectAccessible(page);
  await page.goto('/settings');
  await expect(page.getByRole('link', { name: 'Customer service', exact: true })).toBeVisible();

  // A reply while the chat is open appears without leaving it.
  await page.goto('/customer-service');
  await expect(log.getByText('Usually within 24 hours.')).toBeVisible();
  ops('chat:reply', String(me.id), 'Anything else I can help with?');
  await expect(log.getByText('Anything else I can help with?')).toBeVisible({ timeout: 15_000 });

  await goOffline(context);
  await input.fill('Written in a tunnel');
  await page.getByRole('button', { name: 'Send' }).click();
  const pending = page.getByTestId('chat-pending');
  await expect(pending).toContainText('Written in a tunnel');
  await expect(pending).toContainText('Will be sent when you are back online');
  await snap(page, 'profile-chat-offline');
  await goOnline(context);
  await expect(pending).toHaveCount(0, { timeout: 15_000 });
  await expect(log.getByText('Written in a tunnel')).toBeVisible();
  const server = await page.request.get('/api/stock/success/user_message/list-message', {
    headers: { token: me.token },
  });
  const bodies = ((await server.json()).data as Array<{ body: string }>).map((m) => m.body);
  expect(bodies.filter((b) => b === 'Written in a tunnel')).toHaveLength(1);
  expect(bodies.filter((b) => b.startsWith('Welcome to Bourse!'))).toHaveLength(1);
});

test('profile screens fit a 320 px phone without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await loginFresh(page);
  for (const url of [
    '/settings',
    '/settings/login-password',
    '/settings/real-name',
    '/settings/bank-cards',
    '/news',
    '/customer-service',
  ]) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading…' })).toHaveCount(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, url).toBeLessThanOrEqual(0);
    await snap(page, `profile-320${url.replace(/\//g, '-')}`);
  }
});
