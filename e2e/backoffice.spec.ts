import { type Browser, expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { serverNow } from './clock-start';
import { fundedUserViaApi, loginFresh, newPhone, ops, snap } from './support';

/**
 * The back office (issue 33) with a customer and staff in separate browsers: staff enrol from the
 * console's one-time link with a password and an authenticator app, at a desk's 1366×768.
 * 1. A customer writes in chat → an agent replies → the customer sees the reply, "Read" and the
 *    badge, typing shows both ways; a real-name submission is rejected with a reason → the customer
 *    reads it in the app and sends it again → approved.
 * 2. A withdrawal above the threshold → the payments operator pays → it waits → the same person
 *    cannot approve → an approver does → paid, once; the ledger audit and the audit chain are clean.
 */

const DESK = {
  viewport: { width: 1366, height: 768 },
  isMobile: false,
  hasTouch: false,
  deviceScaleFactor: 1,
};
const STAFF_PASSWORD = 'a long desk password';

interface Member {
  page: Page;
  secret: string;
  token: string;
}

/** A member added by the console, enrolled through the back office's own screens. */
async function enrol(browser: Browser, role: string, name: string): Promise<Member> {
  const login = `${role}${Date.now().toString(36)}`;
  const out = ops('staff:add', login, '--role', role, '--name', name);
  const token = /\/ops\/enrol#([A-Za-z0-9_-]+)/.exec(out)?.[1];
  expect(token, out).toBeTruthy();
  const context = await browser.newContext({
    ...DESK,
    deviceScaleFactor: process.env.E2E_SCREENS ? 2 : 1,
    baseURL: test.info().project.use.baseURL,
  });
  const page = await context.newPage();
  await page.goto(`/ops/enrol#${token}`);
  await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD);
  await page.getByLabel('Password again').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  // No way on without a second factor.
  await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible();
  await page.getByRole('button', { name: 'Authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const now = await serverNow(new URL(page.url()).origin);
  await page.getByLabel('The code the app shows').fill(totp.generate({ timestamp: now }));
  await page.getByRole('button', { name: 'Turn on and continue' }).click();
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible();
  const bearer = await page.evaluate(() => sessionStorage.getItem('bourse.ops.token'));
  return { page, secret, token: bearer! };
}

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
  const phone = newPhone();
  const token = await fundedUserViaApi(page.request, phone, 'secret123', 300_000);
  const headers = { token };
  await page.request.post('/api/stock/success/user/password/up', {
    headers,
    data: { type: 'transaction', is_first: true, fund_code_new: '135790' },
  });
  const card = await page.request.post('/api/stock/success/bank/add', {
    headers,
    data: {
      bank: 'HDFC Bank',
      branch_bank: 'Fort, Mumbai',
      bank_card: '5012345678904321',
      bank_user: 'Ravi Menon',
      ifsc: 'HDFC0000240',
      stock_password: '135790',
    },
  });
  const bankId = (await card.json()).data.id;
  const asked = await page.request.post('/api/stock/success/money/access', {
    headers: { ...headers, 'idempotency-key': `bo-${Date.now()}` },
    data: { bank_id: bankId, count: 250_000, stock_password: '135790' },
  });
  const withdrawal = (await asked.json()).data.id as number;
  // More waits than the payout: a loan application and a question in the chat.
  await page.request.post('/api/stock/success/loans/add', {
    headers: { ...headers, 'idempotency-key': `bo-loan-${Date.now()}` },
    data: { count: 25_000 },
  });
  await page.request.post('/api/stock/success/user_message/send', {
    headers,
    data: { message: 'Has my large withdrawal been approved yet?' },
  });

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
  await expect(row).toContainText('Card added or changed in the last 24 h');
  await expect(row).toContainText('2 people');
  await row.getByRole('button', { name: 'Pay' }).click();
  await expect(row).toContainText('Awaits 2nd approval · Dev Patel');
  // The operator has no Approve, and the server refuses the same person all the same.
  await expect(row.getByRole('button', { name: 'Approve' })).toHaveCount(0);
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
  await expect(waiting).toContainText('Awaits 2nd approval · Dev Patel');
  await snap(checker, 'ops-payout-approval');
  await waiting.getByRole('button', { name: 'Approve' }).click();
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
