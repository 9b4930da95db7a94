/**
 * `npm run bench:stock`: the stock detail's figures, printed (no pass/fail).
 *   1. JS the stock detail loads vs Home (gzip, as served), and what only the detail needs
 *   2. tap on a Markets row → chart drawn (warm: the route's code and the worker are loaded)
 *   3. main-thread long tasks over BENCH_SECONDS on the detail with live updates (real time)
 *   4. frames per second while dragging the Day K chart, at 1× and BENCH_CPU× CPU
 * Runs the real server on a temporary SQLite database and serves dist/ (built first if missing).
 * Environment: BENCH_PORT (4341), BENCH_SECONDS (20), BENCH_CPU (4), CHROME_PATH (/usr/bin/chromium).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright';
import { startBenchServer } from './server-process';

const root = path.resolve(import.meta.dirname, '../..');
const PORT = Number(process.env.BENCH_PORT ?? 4341);
const BASE = `http://127.0.0.1:${PORT}`;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CPU = Number(process.env.BENCH_CPU ?? 4);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-stock-'));
const DETAIL = '/stock/RELIANCE.NS/IN/Reliance%20Industries';
const CHART = '[role="img"][data-period][data-candles]';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function startServer(): Promise<() => Promise<void>> {
  return startBenchServer({ port: PORT, dir: tmp });
}

async function sessionScript(): Promise<string> {
  const phone = `7${String(Date.now()).slice(-9)}`;
  const body = (data: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(data),
  });
  await fetch(`${BASE}/api/stock/user/reg`, body({ user: phone, password: 'secret123', code: 'BOURSE26' }));
  const t = (
    await (await fetch(`${BASE}/api/stock/user/login`, body({ user: phone, password: 'secret123' }))).json()
  ).data;
  const value = JSON.stringify({
    state: { token: t.token, userInfo: { id: t.id, user: t.user, login: t.login } },
    version: 0,
  });
  return `localStorage.setItem('bourse.session', ${JSON.stringify(value)});`;
}

/** The main-thread scripts a route fetched until `ready`, with their gzip sizes. */
async function scriptsOf(context: BrowserContext, url: string, ready: string): Promise<Map<string, number>> {
  const page = await context.newPage();
  const seen = new Set<string>();
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (p.endsWith('.js') && !p.includes('sync.worker') && !p.endsWith('sw.js')) seen.add(p);
  });
  await page.goto(url);
  await page.waitForSelector(ready);
  // The shell loads a few helpers just after start on every route; let both routes catch them.
  await page.waitForTimeout(2000);
  await page.close();
  const out = new Map<string, number>();
  for (const p of seen) {
    const file = path.join(root, 'dist', p);
    out.set(p, fs.statSync(fs.existsSync(`${file}.gz`) ? `${file}.gz` : file).size);
  }
  return out;
}

/** In the page: click the first stock row and resolve with ms until the chart has drawn and painted. */
function tapToChart(page: Page): Promise<number> {
  // A string: tsx would wrap named inner functions in a helper the page does not have.
  return page.evaluate(`new Promise((resolve) => {
    const link = document.querySelector('ul[aria-label^="Stocks"] a[href^="/stock/"]');
    const t0 = performance.now();
    link.click();
    (function check() {
      if (document.querySelector(${JSON.stringify(CHART)})) requestAnimationFrame(() => resolve(performance.now() - t0));
      else requestAnimationFrame(check);
    })();
  })`);
}

/**
 * A finger dragging across the chart at display rate: one pointer move per animation frame,
 * dispatched in the page (no round trip per move), back and forth for 3 s.
 */
async function fpsWhileDragging(
  page: Page,
  cpu: number,
  drag = true,
): Promise<{ fps: number; p95: number; moves: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  const r = await page.evaluate<{ frames: number[]; moves: number }>(`new Promise((resolve) => {
    const el = document.querySelector(${JSON.stringify(CHART)});
    const box = el.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const at = (f) => box.left + box.width * f;
    const ev = (type, x) => ${drag} && el.dispatchEvent(new PointerEvent(type, { pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true }));
    const frames = [];
    let f = 0.2, dir = 1, moves = 0, t0 = 0;
    ev('pointerdown', at(f));
    requestAnimationFrame(function step(t) {
      if (!t0) t0 = t;
      frames.push(t);
      if (t - t0 > 3000) { ev('pointerup', at(f)); resolve({ frames, moves }); return; }
      f += dir * 0.01;
      if (f > 0.8 || f < 0.2) dir = -dir;
      ev('pointermove', at(f));
      moves++;
      requestAnimationFrame(step);
    });
  })`);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  const { frames, moves } = r;
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
  const span = (frames.at(-1)! - frames[0]!) / 1000;
  const sorted = [...gaps].sort((a, b) => a - b);
  return { fps: (frames.length - 1) / span, p95: sorted[Math.floor(sorted.length * 0.95)] ?? 0, moves };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'dist/index.html'))) {
    const r = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const stop = await startServer();
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({
      baseURL: BASE,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    await context.addInitScript(await sessionScript());

    // 1. JS per route.
    const home = await scriptsOf(context, '/', 'ul[aria-labelledby="home-indices"] a');
    const detail = await scriptsOf(context, DETAIL, CHART);
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const only = [...detail].filter(([p]) => !home.has(p));
    console.log(`JS, home: ${kb(sum(home))} gzip in ${home.size} files`);
    console.log(`JS, stock detail (opened directly): ${kb(sum(detail))} gzip in ${detail.size} files`);
    console.log(
      `JS only the stock detail loads: ${kb(only.reduce((a, [, b]) => a + b, 0))} gzip (${only.map(([p]) => path.basename(p)).join(', ')})`,
    );

    // 2. Tap → chart, warm.
    const page = await context.newPage();
    await page.goto('/markets');
    await page.waitForSelector('ul[aria-label^="Stocks"] a');
    const cold = await tapToChart(page);
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.goBack();
      await page.waitForSelector('ul[aria-label^="Stocks"] a');
      warm.push(await tapToChart(page));
    }
    console.log(
      `tap → chart drawn: first ${cold.toFixed(0)} ms (route code loaded then), warm median ${median(warm).toFixed(0)} ms (${warm.map((w) => w.toFixed(0)).join(', ')})`,
    );

    // 3. Long tasks with live updates (real time: 5 s polls plus live ticks on the last bar).
    await page.getByRole('tab', { name: 'Real time' }).click();
    await page.waitForSelector('[role="img"][data-period="1m"][data-candles]');
    await page.evaluate(() => {
      const w = window as unknown as { longtasks: number[] };
      w.longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longtasks.push(e.duration);
      }).observe({ type: 'longtask' });
    });
    await page.waitForTimeout(SECONDS * 1000);
    const tasks = await page.evaluate(() => (window as unknown as { longtasks: number[] }).longtasks);
    console.log(
      `long tasks over ${SECONDS} s of live updates (real time): ${tasks.length}, total ${tasks.reduce((a, b) => a + b, 0).toFixed(0)} ms, longest ${tasks.length ? Math.max(...tasks).toFixed(0) : 0} ms`,
    );

    // 4. Panning.
    await page.getByRole('tab', { name: 'Day K' }).click();
    await page.waitForSelector('[role="img"][data-period="1d"][data-candles]');
    const visible = await page.locator(CHART).getAttribute('data-candles');
    // The same loop without moves: what this machine's frame rate is with nothing to draw.
    const idle = await fpsWhileDragging(page, 1, false);
    console.log(
      `baseline, same page idle at 1× CPU: ${idle.fps.toFixed(1)} fps, p95 frame ${idle.p95.toFixed(1)} ms (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores)`,
    );
    for (const cpu of [1, CPU]) {
      const r = await fpsWhileDragging(page, cpu);
      console.log(
        `dragging the Day K chart (${visible} candles in view) at ${cpu}× CPU: ${r.fps.toFixed(1)} fps, p95 frame ${r.p95.toFixed(1)} ms, ${r.moves} pointer moves (one a frame) in 3 s`,
      );
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
