/**
 * `npm run bench:ui`: the app core's performance figures, printed (no pass/fail).
 *   1. worker chart math for 10,000 candles (MA 5/10/20, volume, extents, paths)
 *   2. initial JS of the login and home routes and of the quote widget (gzip and brotli, as served),
 *      and the sync worker's files and its start's rounds of requests (its longest chain of static imports)
 *   3. Lighthouse (mobile) on login and home, with simulated and with applied throttling
 *   4. offline cold start: a new page, offline, to the last known account summary on screen
 *   5. main-thread long tasks over 60 s on a busy screen (50 live favourites + a live chart)
 *   6. a returning user's start on a slow phone (Lighthouse's applied throttling, no service
 *      worker): Home's LCP with the first screen's polls remembered (src/api/firstPolls.ts) and
 *      without, the app's files from the network and from the HTTP cache, runs alternated
 *      (BENCH_RETURN_RUNS, default 5 of each)
 * It builds the app and the bench screen, and runs the real server on a temporary SQLite database.
 * Environment: BENCH_PORT (4332), BENCH_SECONDS (60), BENCH_CPU (CPU slowdown for 5, default 4),
 * CHROME_PATH (/usr/bin/chromium), BENCH_SKIP (comma list of section numbers), BENCH_LH_RUNS (3),
 * BENCH_LH_JSON (a folder for the median Lighthouse reports), BENCH_FILES (1: list each route's scripts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright';
import type { CandleRow } from '#shared/contract/market';
import { FIRST_POLLS_KEY } from '../../src/api/firstPolls';
import { computeChart, toColumns } from '../../workers/chart';
import { initialJs, kb } from './first-screens';
import { failedAudits, failure, keepReport, lighthouseMedian, score, type Throttling } from './lighthouse';
import { startBenchServer } from './server-process';

const root = path.resolve(import.meta.dirname, '../..');
const PORT = Number(process.env.BENCH_PORT ?? 4332);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CPU = Number(process.env.BENCH_CPU ?? 4);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const DEMO = { phone: '9876543210', password: 'demo1234' };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-'));
const results: string[] = [];

const line = (s: string) => {
  console.log(s);
  results.push(s);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

/**
 * The app as this bench measures it: a build of its own, so it never replaces dist/ (which the e2e
 * suite serves with the back office beside it, a build this bench does not make).
 */
const DIST = path.join(root, '.tmp/ui-dist');

function build(): void {
  for (const args of [
    ['vite', 'build', '--outDir', DIST, '--emptyOutDir'],
    ['vite', 'build', '--config', 'tests/bench/vite.bench.config.ts'],
  ]) {
    const r = spawnSync(path.join(root, 'node_modules/.bin', args[0]!), args.slice(1), {
      cwd: root,
      stdio: 'pipe',
    });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr}`);
  }
  // The server serves a build whose index.html is at its root.
  const bench = path.join(root, '.tmp/bench-dist');
  fs.copyFileSync(path.join(bench, 'tests/bench/busy/index.html'), path.join(bench, 'index.html'));
}

function startServer(distDir: string): Promise<() => Promise<void>> {
  return startBenchServer({ port: PORT, dir: tmp, distDir });
}

async function token(): Promise<{ token: string; id: number; user: string; login: number }> {
  const res = await fetch(`${BASE}/api/stock/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: DEMO.phone, password: DEMO.password }),
  });
  return (await res.json()).data;
}

async function sessionScript(): Promise<string> {
  const t = await token();
  const value = JSON.stringify({
    state: { token: t.token, userInfo: { id: t.id, user: t.user, login: t.login } },
    version: 0,
  });
  return `localStorage.setItem('bourse.session', ${JSON.stringify(value)});`;
}

// 1. Chart math ------------------------------------------------------------------------------
function chartMath(): void {
  const n = 10_000;
  let price = 1000;
  const rows: CandleRow[] = Array.from({ length: n }, (_, i) => {
    const open = price;
    price = Math.max(1, price * (1 + (Math.random() - 0.5) * 0.02));
    return {
      timestamp: 1_700_000_000_000 + i * 86_400_000,
      open,
      high: Math.max(open, price) * 1.005,
      low: Math.min(open, price) * 0.995,
      close: price,
      volume: Math.round(Math.random() * 1e6),
      change: price - open,
    };
  });
  const times: number[] = [];
  for (let i = 0; i < 220; i++) {
    const t0 = performance.now();
    computeChart(toColumns(rows));
    const dt = performance.now() - t0;
    if (i >= 20) times.push(dt);
  }
  line(
    `chart math, 10,000 candles (columns + MA 5/10/20 + volume + avg + extents + sparkline paths), V8 in Node ${process.version}: median ${median(times).toFixed(2)} ms, p95 ${pct(times, 0.95).toFixed(2)} ms (aim ≤ 5 ms)`,
  );
}

// 2. Initial JS -------------------------------------------------------------------------------

async function initialJsLine(
  context: BrowserContext,
  url: string,
  ready: (p: Page) => Promise<void>,
  label: string,
) {
  const js = await initialJs(DIST, context, url, ready);
  if (process.env.BENCH_FILES)
    for (const p of js.files) {
      const f = path.join(DIST, p);
      console.log(`    ${p} ${kb(fs.statSync(fs.existsSync(`${f}.gz`) ? `${f}.gz` : f).size)}`);
    }
  const workerStart = js.workerRounds ? `, its start ${js.workerRounds} rounds of requests` : '';
  line(
    `initial JS, ${label}: ${kb(js.gzip)} gzip / ${kb(js.brotli)} brotli on the main thread (${js.files.length} files; aim ≤ 110 KB gzip); the sync worker's ${js.workerFiles} files add ${kb(js.workerGzip)} gzip off the main thread${workerStart}`,
  );
}

// 3. Lighthouse -------------------------------------------------------------------------------
const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);

async function runLighthouse(
  url: string,
  label: string,
  session: (() => Promise<string>) | null,
  throttling: Throttling,
): Promise<void> {
  label = `${label}, ${throttling === 'simulate' ? 'simulated' : 'applied'} throttling`;
  const {
    median: lhr,
    runs,
    performance,
    repeated,
  } = await lighthouseMedian(url, session, throttling, LH_RUNS);
  if (repeated) line(`    ${label}: ${repeated} run(s) repeated after Lighthouse failed to record the trace`);
  keepReport(lhr, label);
  const v = (id: string) => lhr.audits[id]?.displayValue ?? '?';
  // A run without a score measured nothing: say why.
  for (const why of runs.map(failure)) if (why) line(`    a ${label} run measured nothing: ${why}`);
  line(
    `lighthouse ${label} (median of ${performance.length}; performance ${performance.join('/')}): performance ${score(lhr, 'performance')}, accessibility ${score(lhr, 'accessibility')}, best practices ${score(lhr, 'best-practices')} — FCP ${v('first-contentful-paint')}, LCP ${v('largest-contentful-paint')}, TBT ${v('total-blocking-time')}, CLS ${v('cumulative-layout-shift')}, SI ${v('speed-index')}`,
  );
  for (const cat of ['accessibility', 'best-practices'])
    for (const audit of failedAudits(lhr, cat)) line(`    ${cat}: ${audit}`);
}

// 4. Offline cold start -------------------------------------------------------------------------
async function offlineColdStart(): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Phone number').fill(DEMO.phone);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('Total assets').waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.waitForFunction(() => /₹[\d,]+\.\d\d/.test(document.body.textContent ?? ''));
  await page.waitForTimeout(1500);
  await page.close();
  await context.setOffline(true);
  await context.route('**/*', (r) => r.abort('internetdisconnected'));
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const p = await context.newPage();
    await p.goto(`${BASE}/`);
    await p.waitForFunction(
      () => {
        const text = document.body.textContent ?? '';
        return text.includes('Last known') && /₹[\d,]+\.\d\d/.test(text);
      },
      null,
      {
        polling: 'raf',
      },
    );
    times.push(await p.evaluate(() => performance.now()));
    await p.close();
  }
  await browser.close();
  line(
    `offline cold start (new page, offline, service worker + device store) to the last known account summary on screen: median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms over ${times.length} starts (aim ≤ 1 s)`,
  );
}

// 6. A returning user's start on a slow phone --------------------------------------------------------
/** Lighthouse's applied ("devtools") throttling of a slow 4G phone. */
const SLOW_PHONE = { latency: 562.5, downloadKbps: 1474.56, uploadKbps: 675, cpu: 4 };

async function returningStart(session: string): Promise<void> {
  const runs = Number(process.env.BENCH_RETURN_RUNS ?? 5);
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  type Variant = `${'emptied' | 'cached'} ${'remembered' | 'forgotten'}`;
  const lcp = new Map<Variant, number[]>();
  for (let i = 0; i < runs; i++) {
    for (const files of ['emptied', 'cached'] as const) {
      for (const polls of ['remembered', 'forgotten'] as const) {
        // No service worker: the HTTP cache alone decides whether the files come from the network.
        const ctx = await browser.newContext({
          serviceWorkers: 'block',
          viewport: { width: 390, height: 844 },
          isMobile: true,
        });
        await ctx.addInitScript(session);
        const page = await ctx.newPage();
        // The last start: Home until the user moves on, which is when its polls are kept.
        await page.goto(`${BASE}/`);
        await page.getByText('Total assets').waitFor();
        await page.getByRole('link', { name: 'Markets' }).click();
        await page.waitForFunction((key) => localStorage.getItem(key) !== null, FIRST_POLLS_KEY);
        await page.goto(`${BASE}/manifest.webmanifest`);
        if (polls === 'forgotten')
          await page.evaluate((key) => localStorage.removeItem(key), FIRST_POLLS_KEY);
        await ctx.addInitScript(() => {
          const w = window as unknown as { lcpAt: number };
          w.lcpAt = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries()) w.lcpAt = e.startTime;
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        });
        const cdp = await ctx.newCDPSession(page);
        await cdp.send('Network.enable');
        if (files === 'emptied') await cdp.send('Network.clearBrowserCache');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: SLOW_PHONE.latency,
          downloadThroughput: (SLOW_PHONE.downloadKbps * 1024) / 8,
          uploadThroughput: (SLOW_PHONE.uploadKbps * 1024) / 8,
        });
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpu });
        await page.goto(`${BASE}/`);
        await page.getByText('Total assets').waitFor({ timeout: 30_000 });
        // Every first answer is in well within this, and the largest paint with it.
        await page.waitForTimeout(5000);
        const key: Variant = `${files} ${polls}`;
        lcp.set(key, [
          ...(lcp.get(key) ?? []),
          await page.evaluate(() => (window as unknown as { lcpAt: number }).lcpAt),
        ]);
        await ctx.close();
      }
    }
  }
  await browser.close();
  const f = (key: Variant) => {
    const xs = lcp.get(key) ?? [];
    return `${median(xs).toFixed(0)} ms (${[...xs]
      .sort((a, b) => a - b)
      .map((x) => x.toFixed(0))
      .join(', ')})`;
  };
  for (const files of ['emptied', 'cached'] as const)
    line(
      `returning start on a slow phone (applied throttling, app files ${files === 'emptied' ? 'from the network' : 'in the HTTP cache'}), Home LCP median: first screen's polls remembered ${f(`${files} remembered`)}; forgotten ${f(`${files} forgotten`)}`,
    );
}

// 5. Long tasks on a busy screen ----------------------------------------------------------------------
async function longTasks(session: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: 'block',
  });
  // 50 real favourites of the demo user (RELIANCE.NS, the chart's symbol, among them), live from the
  // real server and its simulator: every list answer and every tick moves prices on screen.
  const auth = { 'content-type': 'application/json', token: (await token()).token };
  const symbols = new Set<string>(['RELIANCE.NS']);
  for (let page = 1; symbols.size < 50 && page <= 20; page++) {
    const res = await fetch(`${BASE}/api/v2/stock/list?page=${page}&limit=10`, { headers: auth });
    const rows: Array<{ stock: string }> = (await res.json()).data?.rows ?? [];
    if (!rows.length) break;
    for (const r of rows) if (symbols.size < 50) symbols.add(r.stock);
  }
  for (const symbol of symbols) {
    await fetch(`${BASE}/api/stock/success/collection/add`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ symbol }),
    });
  }
  await context.addInitScript(session);
  await context.addInitScript(() => {
    const w = window as unknown as { longtasks: number[] };
    w.longtasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longtasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log('bench screen error:', e.message));
  page.on('console', (m) => m.type() === 'error' && console.log('bench screen console:', m.text()));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  await page.goto(`${BASE}/`);
  await page.waitForFunction(
    () => Number(document.querySelector('ul')?.getAttribute('data-rows') ?? 0) >= 50,
    null,
    {
      timeout: 30_000,
    },
  );
  await page.waitForFunction(
    () => ((window as unknown as { chartFrames?: number }).chartFrames ?? 0) > 0,
    null,
    {
      timeout: 30_000,
    },
  );
  await page.evaluate(() => {
    const w = window as unknown as { longtasks: number[]; chartFrames: number };
    w.longtasks = [];
    w.chartFrames = 0;
  });
  await page.waitForTimeout(SECONDS * 1000);
  const { tasks, frames } = await page.evaluate(() => {
    const w = window as unknown as { longtasks: number[]; chartFrames: number };
    return { tasks: w.longtasks, frames: w.chartFrames };
  });
  await browser.close();
  line(
    `long tasks over ${SECONDS} s, 50 live favourites + live candle chart (${frames} chart frames), CPU ×${CPU} slowdown: ${tasks.length} tasks > 50 ms${tasks.length ? ` (longest ${Math.max(...tasks).toFixed(0)} ms)` : ''} (aim 0)`,
  );
}

async function main(): Promise<void> {
  console.log('building the app and the bench screen…');
  build();
  if (!SKIP.has('1')) chartMath();
  let stop = await startServer(DIST);
  try {
    const session = await sessionScript();
    if (!SKIP.has('2')) {
      const browser = await chromium.launch({
        executablePath: CHROME,
        args: ['--no-sandbox', '--disable-gpu'],
      });
      const ctx = await browser.newContext({
        serviceWorkers: 'block',
        viewport: { width: 390, height: 844 },
        isMobile: true,
      });
      await initialJsLine(ctx, `${BASE}/login`, (p) => p.getByLabel('Phone number').waitFor(), 'login route');
      await ctx.addInitScript(session);
      await initialJsLine(ctx, `${BASE}/`, (p) => p.getByText('Total assets').waitFor(), 'home route');
      // The quote widget partner sites embed (iframe.html): it shares the app's chunks, not all of them.
      await initialJsLine(
        ctx,
        `${BASE}/iframe.html?symbol=AAPL`,
        (p) => p.getByText('Open in Bourse').waitFor(),
        'quote widget',
      );
      await browser.close();
    }
    if (!SKIP.has('3')) {
      for (const throttling of ['simulate', 'devtools'] as const) {
        await runLighthouse(`${BASE}/login`, 'login', null, throttling);
        await runLighthouse(`${BASE}/`, 'home', sessionScript, throttling);
      }
    }
    if (!SKIP.has('4')) await offlineColdStart();
    if (!SKIP.has('6')) await returningStart(session);
    await stop();
    stop = await startServer(path.join(root, '.tmp/bench-dist'));
    if (!SKIP.has('5')) await longTasks(await sessionScript());
  } finally {
    await stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log('\n━━ bench:ui ━━');
  for (const r of results) console.log(`  ${r}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
