/**
 * `npm run bench:net`: the flaky-network figures, printed (no pass/fail).
 *   1. server silent → "Can't reach Bourse" banner, and server back → banner gone and the balance
 *      live again (its "Last known" mark gone), each the median of BENCH_ROUNDS (5) rounds;
 *   2. API requests the browser sends in the first 5 s after the server answers again;
 *   3. with BENCH_SHOTS=<dir>: 390×844 screenshots of each connection state (online, slow,
 *      unreachable, offline, low-data) in light and dark.
 * The real built app (dist/, built first unless BENCH_NO_BUILD=1) and the real server on a
 * temporary SQLite database, behind the e2e chaos proxy (e2e/chaos.ts), in Debian's Chromium.
 * Environment: BENCH_PORT (4335; the proxy listens on the next port), BENCH_ROUNDS (5),
 * BENCH_SILENT_MS (how long the first outage lasts once the banner is up, 3000; each later one
 * lasts 900 ms more, so the server's return falls at different points of the app's probe
 * schedule — one fixed length measures one phase of it), CHROME_PATH.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright';
import { startChaosProxy } from '../../e2e/chaos';
import { POLL_MS } from '../../src/shared/rules';
import { startBenchServer } from './server-process';

const root = path.resolve(import.meta.dirname, '../..');
const PORT = Number(process.env.BENCH_PORT ?? 4335);
const BASE = `http://127.0.0.1:${PORT}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SILENT_MS = Number(process.env.BENCH_SILENT_MS ?? 3_000);
const outageMs = (round: number) => SILENT_MS + round * 900;
const SHOTS = process.env.BENCH_SHOTS ? path.resolve(process.env.BENCH_SHOTS) : null;
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'secret123';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-net-'));

/** The banner within two poll intervals of the screen on show (Account: user info). */
const GOAL_MS = 2 * POLL_MS.accountInfo;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function api<T>(url: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${BASE}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await res.json()) as { msg: string; data: T };
  if (answer.msg !== 'ok') throw new Error(`${url}: ${JSON.stringify(answer)}`);
  return answer.data;
}

/** A new user with 1,00,000 in the account, signed in on the page through the login screen. */
async function signIn(page: Page): Promise<void> {
  const phone = `7${String(Date.now()).slice(-9)}`;
  await api('/api/stock/user/reg', { user: phone, password: PASSWORD, code: 'BOURSE26' });
  const { token } = await api<{ token: string }>('/api/stock/user/login', {
    user: phone,
    password: PASSWORD,
  });
  await api('/api/stock/success/v2/recharge/add', { count: 100000 }, token);
  for (let i = 0; i < 80; i++) {
    const info = await api<{ money: string }>('/api/stock/success/v2/user/info', undefined, token);
    if (info.money === '100000.00') break;
    await sleep(250);
  }
  await page.goto('/login');
  await page.getByLabel('Phone number').fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('Total assets').first().waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready);
}

const banner = (page: Page, state: string) => page.locator(`[data-connection="${state}"]`);
const assets = (page: Page) => page.getByRole('region', { name: 'Your assets' });

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // The theme follows the system colour scheme (src/styles/tokens.css).
    await page.waitForFunction(
      (dark) => window.matchMedia('(prefers-color-scheme: dark)').matches === dark,
      scheme === 'dark',
    );
    await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function main(): Promise<void> {
  if (process.env.BENCH_NO_BUILD !== '1') {
    const r = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'error'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  // The sandbox settles the new user's recharge in a second (the server's default is 30 s).
  process.env.SANDBOX_SETTLE_MS ??= '1000';
  const stop = await startBenchServer({ port: PORT, dir: tmp });
  const proxy = await startChaosProxy(BASE, PORT + 1);
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  let context: BrowserContext | null = null;
  try {
    context = await browser.newContext({
      baseURL: proxy.url,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
      timezoneId: 'Asia/Kolkata',
    });
    const page = await context.newPage();
    await signIn(page);
    await page.goto('/account');
    await assets(page).getByText('₹1,00,000.00').first().waitFor();
    await assets(page).getByText('Last known', { exact: true }).waitFor({ state: 'detached' });

    const toBanner: number[] = [];
    const toLive: number[] = [];
    const burst: number[] = [];
    const perPath = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      proxy.silent();
      const silentAt = Date.now();
      await banner(page, 'unreachable').waitFor({ timeout: 60_000 });
      toBanner.push(Date.now() - silentAt);
      await sleep(outageMs(round));
      proxy.answer();
      const backAt = Date.now();
      await page.locator('[data-connection]').waitFor({ state: 'detached', timeout: 60_000 });
      await assets(page).getByText('Last known', { exact: true }).waitFor({ state: 'detached' });
      toLive.push(Date.now() - backAt);
      await sleep(Math.max(0, backAt + 5_000 - Date.now()));
      const sent = proxy.requests.filter(
        (r) => r.at >= backAt && r.at < backAt + 5_000 && r.path.startsWith('/api/'),
      );
      burst.push(sent.length);
      for (const r of sent) {
        const p = r.path.split('?')[0]!;
        perPath.set(p, Math.max(perPath.get(p) ?? 0, sent.filter((s) => s.path.split('?')[0] === p).length));
      }
      // The next outage starts from a settled screen.
      await sleep(2_000);
    }
    const load = os.loadavg().map((l) => l.toFixed(2));
    console.log(`machine: ${os.cpus().length} cores, load average ${load.join(' ')} (at the end)`);
    console.log(
      `server silent → banner: median ${median(toBanner)} ms (${toBanner.join(', ')}) over ${ROUNDS} outages; ` +
        `goal: within two of Account's polls (${GOAL_MS} ms): ${toBanner.filter((ms) => ms <= GOAL_MS).length} of ${ROUNDS}`,
    );
    console.log(
      `server back → banner gone and balance live: median ${median(toLive)} ms (${toLive.join(', ')}); outages lasted ${Array.from({ length: ROUNDS }, (_, i) => outageMs(i)).join(', ')} ms after their banner`,
    );
    console.log(
      `API requests in the first 5 s after the server answers again: median ${median(burst)}, max ${Math.max(...burst)} (${burst.join(', ')}); most to one path in one reconnect: ${[
        ...perPath,
      ]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([p, n]) => `${p} ×${n}`)
        .join(', ')}`,
    );

    if (SHOTS) {
      fs.mkdirSync(SHOTS, { recursive: true });
      await shot(page, 'online');
      // Slow: every answer 2.5 s late on a settled screen (a reload would queue its first requests
      // behind the browser's six connections long enough to look unreachable).
      proxy.latency(2_500);
      await banner(page, 'slow').waitFor({ timeout: 30_000 });
      await shot(page, 'slow');
      proxy.latency(0);
      proxy.silent();
      await banner(page, 'unreachable').waitFor({ timeout: 30_000 });
      await shot(page, 'unreachable');
      proxy.answer();
      await page.locator('[data-connection]').waitFor({ state: 'detached', timeout: 60_000 });
      await context.setOffline(true);
      await banner(page, 'offline').waitFor();
      await shot(page, 'offline');
      await context.setOffline(false);
      await page.locator('[data-connection]').waitFor({ state: 'detached', timeout: 60_000 });
      // The Settings switch keeps its choice here (src/api/lowData.ts); a reload applies it.
      await page.evaluate(() => localStorage.setItem('bourse.lowData', 'on'));
      await page.reload();
      await banner(page, 'low-data').waitFor();
      await assets(page).getByText('₹1,00,000.00').first().waitFor();
      await shot(page, 'low-data');
      console.log(`screenshots: ${SHOTS}/{online,slow,unreachable,offline,low-data}-{light,dark}.png`);
    }
  } finally {
    await context?.close();
    await browser.close();
    await proxy.close();
    await stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
