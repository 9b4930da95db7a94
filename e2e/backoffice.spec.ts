import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { enrol } from './staff';
import { fundedUserViaApi, loginFresh, newPhone, ops, snap } from './support';

/**
 * The back office with a customer and staff in separate browsers: staff enrol from the
 * console's one-time link with a password and an authenticator app, at a desk's 1366×768.
 * 1. A customer writes in chat → an agent replies → the customer sees the reply, "Read" and the
 *    badge, typing shows both ways; a real-name submission is rejected with a reason → the customer
 *    reads it in the app and sends it again → approved.
 * 2. A withdrawal above the threshold → the payments operator pays → it waits → the same person
 *    cannot approve → an approver does → paid, once; the ledger audit and the audit chain are clean.
 */
// The operator's queues list every customer's waiting work, 20 at most, and the ledger audit reads
// the whole database: a server of its own, where only these journeys add to them.
test.use({ ownServer: 'backoffice' });

/**
 * An ID card's photo as a phone would send it (PNG, 640×400), drawn by the customer's browser: a
 * header band, a portrait, the holder's name and number on the front; an address and a barcode on
 * the back. Only so the officer's case view shows a document, not a flat square.
 */
async function idPhoto(page: Page, side: 'front' | 'back', name: string, number: string): Promise<Buffer> {
  const b64 = await page.evaluate(
    async ({ side, name, number }) => {
      const c = new OffscreenCanvas(640, 400);
      const g = c.getContext('2d')!;
      g.fillStyle = '#f4efe1';
      g.fillRect(0, 0, 640, 400);
      g.fillStyle = '#1f4e8c';
      g.fillRect(0, 0, 640, 70);
      g.fillStyle = '#ffffff';
      g.font = 'bold 26px sans-serif';
      g.fillText('GOVERNMENT OF INDIA', 24, 45);
      g.fillStyle = '#e08a1e';
      g.fillRect(0, 70, 640, 8);
      g.fillStyle = '#222222';
      if (side === 'front') {
        g.fillStyle = '#c9c2b0';
        g.fillRect(28, 100, 150, 190);
        g.fillStyle = '#8d8574';
        g.beginPath();
        g.arc(103, 170, 42, 0, Math.PI * 2);
        g.fill();
        g.fillRect(48, 225, 110, 65);
        g.fillStyle = '#222222';
        g.font = '18px sans-serif';
        g.fillText('Name', 210, 125);
        g.font = 'bold 26px sans-serif';
        g.fillText(name, 210, 158);
        g.font = '18px sans-serif';
        g.fillText('Date of birth  14/02/1991', 210, 200);
        g.fillText('Female', 210, 232);
        g.font = 'bold 34px monospace';
        g.fillText(number, 210, 330);
      } else {
        g.font = '18px sans-serif';
        const lines = [
          'Address',
          'Flat 12, Sea View Apartments',
          'Marine Drive, Mumbai 400020',
          'Maharashtra',
        ];
        lines.forEach((l, i) => {
          g.fillText(l, 28, 120 + i * 32);
        });
        for (let x = 28; x < 612; x += 6) g.fillRect(x, 290, (x * 7) % 4 === 0 ? 4 : 2, 70);
      }
      const bytes = new Uint8Array(await (await c.convertToBlob({ type: 'image/png' })).arrayBuffer());
      let text = '';
      for (let i = 0; i < bytes.length; i += 0x8000)
        text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    },
    { side, name, number },
  );
  return Buffer.from(b64, 'base64');
}

/**
 * A customer of their own, funded, with a bank card (its holder `holder`) added just now and a
 * withdrawal of `amount` asked to it; more waits than the payout: a loan application of ₹25,000 and
 * a question in the chat.
 */
async function customerWithPayout(api: APIRequestContext, holder: string, amount: number) {
  const phone = newPhone();
  const token = await fundedUserViaApi(api, phone, 'secret123', amount + 50_000);
  const headers = { token };
  await api.post('/api/stock/success/user/password/up', {
    headers,
    data: { type: 'transaction', is_first: true, fund_code_new: '135790' },
  });
  const card = await api.post('/api/stock/success/bank/add', {
    headers,
    data: {
      bank: 'HDFC Bank',
      branch_bank: 'Fort, Mumbai',
      bank_card: '5012345678904321',
      bank_user: holder,
      ifsc: 'HDFC0000240',
      stock_password: '135790',
    },
  });
  const bankId = (await card.json()).data.id;
  const asked = await api.post('/api/stock/success/money/access', {
    headers: { ...headers, 'idempotency-key': `bo-${phone}` },
    data: { bank_id: bankId, count: amount, stock_password: '135790' },
  });
  const withdrawal = (await asked.json()).data.id as number;
  expect(withdrawal).toBeGreaterThan(0);
  await api.post('/api/stock/success/loans/add', {
    headers: { ...headers, 'idempotency-key': `bo-loan-${phone}` },
    data: { count: 25_000 },
  });
  await api.post('/api/stock/success/user_message/send', {
    headers,
    data: { message: 'Has my large withdrawal been approved yet?' },
  });
  return { phone, token, headers, withdrawal };
}

/**
 * What does not fit a desk's screen: the page or a table scrolling sideways, or a button, link or
 * field of a table outside its card (cut off, or behind a scroll the operator must find). Empty when
 * everything is in view; counts what it measured, so a page with no table cannot pass unmeasured.
 */
async function offTheCard(page: Page): Promise<{ controls: number; problems: string[] }> {
  return page.evaluate(() => {
    const problems: string[] = [];
    let controls = 0;
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth + 1)
      problems.push(`the page scrolls sideways (${root.scrollWidth} px)`);
    const main = document.querySelector('main');
    if (main && main.scrollWidth > main.clientWidth + 1)
      problems.push(`the main area scrolls sideways (${main.scrollWidth} > ${main.clientWidth} px)`);
    for (const table of document.querySelectorAll('main table')) {
      const card = table.closest('section') ?? table.parentElement!;
      const title = card.querySelector('h2')?.textContent ?? 'a table';
      const box = card.getBoundingClientRect();
      const wrap = table.parentElement!;
      if (wrap.scrollWidth > wrap.clientWidth + 1)
        problems.push(`${title}: scrolls sideways (${wrap.scrollWidth} > ${wrap.clientWidth} px)`);
      for (const el of table.querySelectorAll<HTMLElement>('button, a, select, input')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0) continue;
        controls++;
        if (r.right > box.right + 0.5 || r.left < box.left - 0.5)
          problems.push(
            `${title}: "${el.textContent?.trim() || el.getAttribute('aria-label')}" off the card`,
          );
      }
    }
    return { controls, problems };
  });
}

async function sendIdPhotos(page: Page, name: string, idNumber: string) {
  await page.getByLabel('ID number').fill(idNumber);
  for (const side of ['front', 'back'] as const) {
    const buffer = await idPhoto(page, side, name, idNumber);
    await page
      .getByTestId(`kyc-${side}`)
      .setInputFiles({ name: `${side}.png`, mimeType: 'image/png', buffer });
  }
  await expect(page.getByText('Uploaded')).toHaveCount(2);
  await page.getByRole('button', { name: 'Submit for verification' }).click();
  await expect(page.getByTestId('kyc-stamp')).toHaveText(/Under review/i);
}

test('chat and real-name review: the agent replies and reads, the officer rejects with a reason, then approves', async ({
  page,
  browser,
}) => {
  const customer = await loginFresh(page);
  const agent = await enrol(browser, 'admin', 'Asha Iyer');
  const desk = agent.page;

  // The customer writes, then leaves the chat.
  await page.goto('/customer-service');
  const log = page.getByRole('list', { name: 'Conversation' });
  await page.getByLabel('Message', { exact: true }).fill('Hello, when will my withdrawal arrive?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log.getByText('Hello, when will my withdrawal arrive?')).toBeVisible();

  // The agent finds it unassigned, waiting, and opens it: the customer's message is now read.
  await desk.goto('/ops/chats');
  await desk.getByRole('tab', { name: 'Unassigned' }).click();
  const thread = desk.getByRole('link', { name: new RegExp(customer.phone) });
  await expect(thread).toContainText('when will my withdrawal arrive?');
  await thread.click();
  const conversation = desk.getByRole('region', { name: 'Conversation', exact: true });
  await expect(conversation.getByText('Hello, when will my withdrawal arrive?')).toBeVisible();
  await expect(conversation.getByRole('timer')).toContainText('Waiting for a first reply');
  await expect(log.getByText('Read', { exact: false })).toBeVisible({ timeout: 10_000 });

  // Typing shows both ways.
  await page.getByLabel('Message', { exact: true }).fill('Also');
  await expect(desk.getByText('The customer is typing…')).toBeVisible({ timeout: 10_000 });
  await desk.getByLabel('Reply').fill('Hi! ');
  await expect(page.getByText('Customer service is typing…')).toBeVisible({ timeout: 10_000 });
  await page.getByLabel('Message', { exact: true }).fill('');
  await desk.getByRole('button', { name: 'Large withdrawal check' }).click();
  await expect(desk.getByLabel('Reply')).toHaveValue(/checked by two members/);
  await snap(desk, 'ops-chat-inbox');

  // The reply arrives while the customer is elsewhere: the badge counts it.
  await page.goto('/settings');
  await desk.getByLabel('Reply').press('Enter');
  await expect(conversation.getByText(/checked by two members of our team/)).toBeVisible();
  const badge = page.getByRole('link', { name: /Customer service, 1 unread/ });
  await expect(badge).toBeVisible({ timeout: 15_000 });
  await badge.click();
  await expect(log.getByText(/checked by two members of our team/)).toBeVisible();
  await expect(conversation.getByText('Read').last()).toBeVisible({ timeout: 10_000 });
  await expect(conversation.getByRole('timer')).toHaveCount(0);

  // Real-name: submitted, rejected with a reason the customer reads in the app.
  await page.goto('/settings/real-name');
  await page.getByLabel('Full name').fill('Meera Nair');
  await sendIdPhotos(page, 'Meera Nair', 'ABCDE1234F');
  await desk.goto('/ops/kyc');
  await desk.getByRole('link', { name: 'Meera Nair' }).click();
  await expect(desk.getByRole('img', { name: 'Front of the ID document' })).toBeVisible();
  await expect(desk.getByRole('img', { name: 'Back of the ID document' })).toBeVisible();
  await expect(desk.getByText('ABCDE1234F')).toBeVisible();
  await desk.getByRole('button', { name: 'Rotate (Back)' }).click();
  await desk.getByRole('button', { name: 'Zoom in (Front)' }).click();
  await snap(desk, 'ops-kyc-case');
  await desk.getByLabel('Your words to the customer (optional)').fill('The back photo is blurred.');
  await desk.getByRole('button', { name: 'Ask for new photos' }).click();
  await expect(desk.getByText('New photos asked for')).toBeVisible();

  await page.reload();
  const rejected = page.getByTestId('kyc-rejected');
  await expect(rejected).toContainText('We need new photos of your ID');
  await expect(rejected).toContainText('Note from our team: The back photo is blurred.');
  await sendIdPhotos(page, 'Meera Nair', 'ABCDE1234F');

  await desk.reload();
  await expect(desk.getByText('Under review')).toBeVisible();
  await desk.getByRole('button', { name: 'Approve' }).click();
  await expect(desk.getByText('Approved. The customer sees the approved stamp.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('kyc-stamp')).toHaveText(/Approved/i);
  await desk.context().close();
});

test('a payout above the threshold: paid by one, waits, refused to the same person, approved by another, paid once', async ({
  page,
  browser,
}) => {
  const { phone, headers, withdrawal } = await customerWithPayout(page.request, 'Ravi Menon', 250_000);

  const operator = await enrol(browser, 'payments', 'Dev Patel');
  const maker = operator.page;
  await expect(maker.getByRole('link', { name: /Payouts/ })).toBeVisible();
  // The queue shows it, oldest-overdue first among everything waiting.
  await expect(
    maker.getByRole('region', { name: 'Queues by type' }).getByText('Held withdrawals'),
  ).toBeVisible();
  await expect(maker.getByRole('row', { name: new RegExp(`Held withdrawal.*${phone}`) })).toContainText(
    '₹2,50,000.00',
  );
  await snap(maker, 'ops-queues');
  await maker.goto(`/ops/payouts?focus=${withdrawal}`);
  const row = maker.getByTestId(`payout-${withdrawal}`);
  await expect(row).toContainText('₹2,50,000.00');
  await expect(row).toContainText(/Card changed \d+ (s|min) ago/);
  // Why it waits names the threshold too: the customer's 24 h above ₹2,00,000.00.
  await expect(row).toContainText('₹2,50,000.00 in 24 h, above ₹2,00,000.00: two people');
  await expect(row).toContainText('2 people');
  await expect(row.getByRole('link', { name: 'Ravi Menon' })).toBeVisible();
  await row.getByRole('button', { name: 'Pay…' }).click();
  const ask = maker.getByRole('dialog', { name: `Ask for a second approval of #${withdrawal}` });
  await expect(ask.getByTestId('confirm-amount')).toHaveText('₹2,50,000.00');
  await expect(ask).toContainText('HDFC Bank •••• 4321');
  await ask.getByRole('button', { name: 'Ask for the second approval' }).click();
  await expect(row).toContainText('Awaits 2nd approval');
  await expect(row).toContainText('Requested by Dev Patel');
  // The operator has no Approve, and the server refuses the same person all the same.
  await expect(row.getByRole('button', { name: /Approve/ })).toHaveCount(0);
  const self = await maker.request.post('/api/ops/payouts/approve', {
    headers: { authorization: `Bearer ${operator.token}` },
    data: { id: withdrawal },
  });
  expect(self.status()).toBe(403);
  const status = () =>
    page.request
      .get('/api/stock/success/property/withdraw', { headers })
      .then(
        async (r) =>
          ((await r.json()).data.rows as Array<{ id: number; status: string }>).find(
            (w) => w.id === withdrawal,
          )?.status,
      );
  expect(await status()).toBe('n');

  const approver = await enrol(browser, 'approver', 'Lena Fischer');
  const checker = approver.page;
  await checker.goto(`/ops/payouts?focus=${withdrawal}`);
  const waiting = checker.getByTestId(`payout-${withdrawal}`);
  await expect(waiting).toContainText('Requested by Dev Patel');
  await snap(checker, 'ops-payout-approval');
  // Approve asks again, restating what leaves: the amount, the payee and the card.
  await waiting.getByRole('button', { name: 'Approve…' }).click();
  const confirm = checker.getByRole('dialog', { name: `Approve and pay withdrawal #${withdrawal}` });
  await expect(confirm.getByTestId('confirm-amount')).toHaveText('₹2,50,000.00');
  await expect(confirm).toContainText('Ravi Menon');
  await expect(confirm).toContainText('HDFC Bank •••• 4321');
  await expect(confirm).toContainText('Requested by');
  await snap(checker, 'ops-payout-confirm');
  expect(await status()).toBe('n');
  await confirm.getByRole('button', { name: 'Approve and pay ₹2,50,000.00' }).click();
  await expect(checker.getByText(`Withdrawal ${withdrawal} approved and paid.`)).toBeVisible();
  await expect(waiting).toHaveCount(0);
  expect(await status()).toBe('y');
  // Paid once: a second approval finds nothing waiting.
  const again = await checker.request.post('/api/ops/payouts/approve', {
    headers: { authorization: `Bearer ${approver.token}` },
    data: { id: withdrawal },
  });
  expect(again.status()).toBe(409);
  expect(ops('ledger:audit')).toMatch(/ledger audit: OK/);
  expect(ops('audit:verify')).toMatch(/chain unbroken/);
  await maker.context().close();
  await checker.context().close();
});

/** Every page an admin opens, by path under /ops, with the heading that says it has loaded. */
const DESK_PAGES: Array<[string, string, string]> = [
  ['queues', '/', 'Queues'],
  ['payouts', '/payouts', 'Payouts'],
  ['deposits', '/deposits', 'Deposits'],
  ['loans', '/loans', 'Loan applications'],
  ['kyc', '/kyc', 'Real-name reviews'],
  ['ipo', '/ipo', 'IPO allotment'],
  ['fx', '/fx', 'Exchange rate'],
  ['news', '/news', 'News'],
  ['audit', '/audit', 'Audit log'],
  ['staff', '/staff', 'Staff'],
];

test('the desk at 1366×768 and 1280×720: every table and its buttons on the card, on every page', async ({
  page,
}) => {
  const { phone, headers, withdrawal } = await customerWithPayout(page.request, 'Kavya Raghunathan', 250_000);
  // A position, so the customer page lists a holding valued at market and a purchase in the ledger.
  const price = (await (await page.request.get('/api/v2/quote?symbol=RELIANCE.NS')).json()).data.price;
  const bought = await page.request.post('/api/stock/success/deal/buy', {
    headers: { ...headers, 'idempotency-key': `bo-buy-${phone}` },
    data: { mold: 'stock', tag: 'RELIANCE.NS', count: 3, price },
  });
  expect((await bought.json()).msg).toBe('ok');
  // The console asks for the payout (it makes, never checks): the admin sees a second approval.
  expect(ops('withdraw:pay', String(withdrawal))).toMatch(/waits for a second approval/);

  // Another member with a long login, so the staff table shows its controls.
  ops(
    'staff:add',
    'lena.fischer.payments',
    '--role',
    'approver',
    '--name',
    'Lena Fischer-Hoffmann',
    '--contact',
    'lena@example.com',
  );
  const admin = await enrol(page.context().browser()!, 'admin', 'Asha Iyer');
  const desk = admin.page;
  const found = await desk.request.get(`/api/ops/customers?q=${phone}`, {
    headers: { authorization: `Bearer ${admin.token}` },
  });
  const userId = ((await found.json()).data as Array<{ id: number }>)[0]?.id ?? 0;
  expect(userId).toBeGreaterThan(0);
  const pages: Array<[string, string, string]> = [
    ...DESK_PAGES,
    ['customer', `/customers/${userId}`, 'Kavya Raghunathan'],
    ['chat', `/chats/${userId}`, 'Chats'],
  ];
  const report: string[] = [];
  for (const size of [
    { width: 1366, height: 768 },
    { width: 1280, height: 720 },
  ]) {
    await desk.setViewportSize(size);
    for (const [name, path, heading] of pages) {
      await desk.goto(`/ops${path}`);
      await expect(desk.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      if (name === 'payouts') await desk.getByTestId(`payout-${withdrawal}`).click();
      if (name === 'customer') await expect(desk.getByRole('region', { name: 'Assets' })).toBeVisible();
      // Pages whose tables have buttons in this journey are measured once their rows have come, not
      // on their heading alone (Queues at 1280×720, then Loans under load, counted 0 controls), and a
      // count of 0 there would be a check of nothing.
      const withButtons = ['queues', 'payouts', 'loans', 'staff'].includes(name);
      if (withButtons) await expect(desk.getByRole('row').nth(1)).toBeVisible();
      const { controls, problems } = await offTheCard(desk);
      if (withButtons)
        expect(controls, `${name} at ${size.width}×${size.height}: controls measured`).toBeGreaterThan(0);
      report.push(`${size.width}×${size.height} ${name}: ${controls} controls measured`);
      expect(problems, `${name} at ${size.width}×${size.height}`).toEqual([]);
      if (size.width === 1366) await snap(desk, `ops-desk-${name}`);
      if (size.width === 1366 && name === 'customer') {
        await desk.getByRole('region', { name: 'Ledger (newest first)' }).scrollIntoViewIfNeeded();
        await snap(desk, 'ops-desk-customer-ledger');
      }
    }
  }
  console.log(report.join('\n'));

  // The customers list, for the team to look at (E2E_SCREENS); the table above measures the rest.
  if (process.env.E2E_SCREENS) {
    await desk.setViewportSize({ width: 1366, height: 768 });
    await desk.goto('/ops/customers');
    await expect(desk.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
    await expect(desk.getByRole('row').nth(1)).toBeVisible();
    await snap(desk, 'ops-desk-customers');
  }

  // The customer page reads as a statement: the person's name, reasons in words, debits and credits
  // apart, the holding listed, the total and what is reserved.
  await desk.setViewportSize({ width: 1366, height: 768 });
  await desk.goto(`/ops/customers/${userId}`);
  const assets = desk.getByRole('region', { name: 'Assets' });
  await expect(assets).toContainText('Total assets');
  await expect(assets).toContainText('Reserved₹2,50,000.00');
  const ledger = desk.getByRole('region', { name: 'Ledger (newest first)' });
  await expect(ledger.getByRole('cell', { name: 'Stock purchase' })).toBeVisible();
  await expect(ledger.getByRole('cell', { name: 'Recharge' })).toBeVisible();
  await expect(ledger.getByRole('cell', { name: '-₹2,50,000.00' })).toBeVisible();
  await expect(ledger).not.toContainText('buyStock');
  await expect(desk.getByRole('region', { name: /Holdings · 1/ })).toContainText('RELIANCE.NS');

  // Queues: the amount in its own column, the customer by name; claiming with c keeps the item.
  await desk.goto('/ops/');
  const chat = desk.getByRole('row', { name: /Unanswered chat.*Kavya Raghunathan/ });
  await chat.click();
  await expect(chat).toHaveAttribute('aria-selected', 'true');
  await desk.keyboard.press('c');
  await expect(chat.getByRole('cell', { name: 'You', exact: true })).toBeVisible();
  await expect(chat).toHaveAttribute('aria-selected', 'true');
  await desk.keyboard.press('Enter');
  await expect(desk).toHaveURL(new RegExp(`/ops/chats/${userId}$`));
  // The welcome is the server's, not an agent's: no bubble of ours, no "Read".
  const welcome = desk.getByRole('listitem').filter({ hasText: 'Automatic welcome' });
  await expect(welcome).toBeVisible();
  await expect(welcome).not.toContainText('Read');
  await desk.context().close();
});
