import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { chromium, type Page } from 'playwright';
import { benchCustomerSearch } from './customer-search';
import { startBenchServer } from './server-process';

/**
 * `npm run bench:backoffice`: how long after a customer sends a chat message an agent
 * sees it in the back office, in a real Chromium on the real server (built dist/ and dist/ops).
 * Twenty messages each, measured from just before the customer's POST to the moment the text is in
 * the agent's page (checked every animation frame): (a) with the conversation open,
 * (b) in the inbox's list. Messages are spaced 3–4.5 s apart at random, so the samples fall at
 * every phase of the page's polls and stay under the chat's cap (20 a minute, lib/caps.ts). Then
 * the customer search over 100,000 customers on SQLite and PostgreSQL (customer-search.ts);
 * `-- --search` runs only that. Figures only, nothing asserted.
 */

const root = path.resolve(import.meta.dirname, '../..');
const port = Number(process.env.BENCH_PORT ?? 4417);
const base = `http://127.0.0.1:${port}`;
const SAMPLES = 20;
const INVITE = 'BOURSE26';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-bo-'));
const cli = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'server/ops/cli.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`, LOG_LEVEL: 'silent' },
  });

async function api(pathName: string, body: unknown, token?: string): Promise<{ msg: string; data: unknown }> {
  const res = await fetch(`${base}/api${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { msg: string; data: unknown };
}

async function customer(phone: string): Promise<{ token: string; id: number }> {
  await api('/stock/user/reg', { user: phone, password: 'secret123', code: INVITE });
  const login = (await api('/stock/user/login', { user: phone, password: 'secret123' })).data as {
    token: string;
    id: number;
  };
  return { token: login.token, id: login.id };
}

async function enrolAgent(page: Page): Promise<void> {
  const out = cli('staff:add', 'benchagent', '--role', 'support', '--name', 'Bench Agent');
  const token = /#([A-Za-z0-9_-]+)/.exec(out)![1];
  await page.goto(`${base}/ops/enrol#${token}`);
  await page.getByLabel('Password', { exact: true }).fill('a long bench password');
  await page.getByLabel('Password again').fill('a long bench password');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('button', { name: 'Authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  await page.getByLabel('The code the app shows').fill(code);
  await page.getByRole('button', { name: 'Turn on and continue' }).click();
  await page.getByRole('navigation', { name: 'Back office' }).waitFor();
}

/** Milliseconds from the customer's send to the text being in the agent's page. */
async function sample(page: Page, token: string, text: string): Promise<number> {
  const seen = page.waitForFunction((t: string) => (document.body.textContent ?? '').includes(t), text, {
    polling: 'raf',
    timeout: 20_000,
  });
  const t0 = performance.now();
  const sent = await api('/stock/success/user_message/send', { message: text }, token);
  if (sent.msg !== 'ok') {
    seen.catch(() => {});
    throw new Error(`send refused: ${JSON.stringify(sent)}`);
  }
  await seen;
  return performance.now() - t0;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function report(label: string, ms: number[]): void {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const median =
    (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
  console.log(
    `  ${label.padEnd(34)} median ${median.toFixed(0).padStart(5)} ms · p90 ${at(0.9).toFixed(0).padStart(5)} ms · min ${sorted[0]!.toFixed(0)} · max ${sorted[sorted.length - 1]!.toFixed(0)} (n=${ms.length})`,
  );
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist/ops/index.html'))) throw new Error('build first: npm run build');
  const stop = await startBenchServer({ port, dir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
    await enrolAgent(page);
    console.log(
      "\nbench:backoffice — a customer's chat message to the agent seeing it (real Chromium, real server)",
    );

    const a = await customer('7000000001');
    const first = await api('/stock/success/user_message/send', { message: 'hello' }, a.token);
    if (first.msg !== 'ok') throw new Error(`send refused: ${JSON.stringify(first)}`);
    await page.goto(`${base}/ops/chats/${a.id}`);
    await page
      .getByText('hello', { exact: true })
      .first()
      .waitFor()
      .catch(async (err) => {
        await page.screenshot({ path: '/tmp/bench-bo.png' });
        throw err;
      });
    const open: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      await pause(3000 + Math.random() * 1500);
      open.push(await sample(page, a.token, `open-${i}-${Date.now()}`));
    }

    const b = await customer('7000000002');
    await page.goto(`${base}/ops/chats`);
    await page.getByRole('tab', { name: 'All' }).click();
    const list: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      await pause(3000 + Math.random() * 1500);
      list.push(await sample(page, b.token, `list-${i}-${Date.now()}`));
    }
    report('(a) conversation open (1 s poll)', open);
    report('(b) inbox list (2 s poll)', list);
  } finally {
    await browser.close();
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

(process.argv.includes('--search') ? benchCustomerSearch() : main().then(benchCustomerSearch)).catch(
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
