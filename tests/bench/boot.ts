/**
 * `npm run bench:boot -- [dist…]`: the long tasks of a first screen's start (printed, never asserted).
 *
 * Each built app given (default dist/; build it first) is served by the real server on a temporary
 * SQLite database, and a new page opens BENCH_PATH (default /login; BENCH_SIGNED_IN=1 opens it as
 * the demo user) under 4× CPU throttling (BENCH_CPU), recording a Chrome trace until the page has
 * been quiet for 2 s. For each long task (over 50 ms, or over 50 ms on a 4× slower phone by its CPU
 * time): when, how long, its main-thread CPU time, what it was (scripts evaluated, or its largest events) and the
 * functions that took its time. With two or more builds (`before`, `after`) the runs alternate — A,
 * B, A, B… — so a machine shared with other work loads them alike, and each build's median blocking
 * time is printed, by wall time and by the CPU model (Σmax(0, k·cpu − 50), Lighthouse's simulated
 * 4× phone, k = 4 / BENCH_CPU: Chrome's throttle keeps the thread busy, so throttled CPU time is the
 * phone's already; steadier than wall time on a shared machine). BENCH_RUNS (default 5 per build),
 * BENCH_PORT (4340; one port per build from there), CHROME_PATH (/usr/bin/chromium), BENCH_TOP
 * (functions per task, 5).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { startBenchServer } from './server-process';
import { blockingTime, cpuBlockingTime, type LongTask, longTasks, startTrace, stopTrace } from './trace';

const root = path.resolve(import.meta.dirname, '../..');
const builds = process.argv.slice(2).length ? process.argv.slice(2) : ['dist'];
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 4340);
const CPU = Number(process.env.BENCH_CPU ?? 4);
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGE = process.env.BENCH_PATH ?? '/login';
const SIGNED_IN = process.env.BENCH_SIGNED_IN === '1';
const TOP = Number(process.env.BENCH_TOP ?? 5);
const DEMO = { phone: '9876543210', password: 'demo1234' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The demo user's session as the app keeps it (src/store/session.ts), for a signed-in start. */
async function session(base: string): Promise<string> {
  const res = await fetch(`${base}/api/stock/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: DEMO.phone, password: DEMO.password }),
  });
  const t = (await res.json()).data as { token: string; id: number; user: string; login: number };
  const value = JSON.stringify({
    state: { token: t.token, userInfo: { id: t.id, user: t.user, login: t.login } },
    version: 0,
  });
  return `localStorage.setItem('bourse.session', ${JSON.stringify(value)});`;
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-boot-'));
  const stops: Array<() => Promise<void>> = [];
  const browser = await chromium.launch({ executablePath: CHROME, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const servers = [];
    for (const [i, dist] of builds.entries()) {
      const dir = path.join(tmp, String(i));
      fs.mkdirSync(dir);
      const port = PORT + i;
      stops.push(await startBenchServer({ port, dir, distDir: path.resolve(root, dist) }));
      servers.push({ dist, base: `http://127.0.0.1:${port}` });
    }
    console.log(
      `${PAGE}${SIGNED_IN ? ' signed in' : ''}, CPU ×${CPU}, ${RUNS} runs per build, alternated; load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 2).join(' / ')}`,
    );
    const runs = new Map<string, LongTask[][]>(builds.map((b) => [b, []]));
    for (let r = 0; r < RUNS; r++) {
      for (const { dist, base } of servers) {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          isMobile: true,
          hasTouch: true,
        });
        if (SIGNED_IN) await context.addInitScript(await session(base));
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
        await startTrace(cdp);
        await page.goto(`${base}${PAGE}`, { waitUntil: 'load' });
        // Quiet: no request for 2 s (what comes after the first screen has come by then).
        let last = Date.now();
        page.on('request', () => {
          last = Date.now();
        });
        while (Date.now() - last < 2000) await page.waitForTimeout(250);
        const tasks = longTasks(await stopTrace(cdp), 50, 4 / CPU);
        runs.get(dist)!.push(tasks);
        await context.close();
      }
    }
    for (const dist of builds) {
      const all = runs.get(dist)!;
      const tbt = all.map(blockingTime);
      // Throttled, the thread's CPU time is the phone's already (Chrome's throttle keeps the thread
      // busy); unthrottled (BENCH_CPU=1), Lighthouse's model scales it by 4.
      const model = all.map((tasks) => cpuBlockingTime(tasks, 4 / CPU));
      // The run whose CPU model is the median, task by task.
      const typical = all[model.indexOf(median(model))]!;
      console.log(
        `\n━━ ${dist}: blocking time (Σ over 50 ms) median ${median(tbt).toFixed(0)} ms (${tbt.map((x) => x.toFixed(0)).join(', ')}); long tasks per run ${all.map((t) => t.length).join(', ')}`,
      );
      console.log(
        `  CPU model Σmax(0, ${4 / CPU}·cpu − 50): median ${median(model).toFixed(0)} ms (${model.map((x) => x.toFixed(0)).join(', ')})`,
      );
      console.log('  the median run:');
      for (const t of typical) {
        console.log(
          `  at ${t.start.toFixed(0).padStart(5)} ms  ${t.duration.toFixed(0).padStart(4)} ms  cpu ${t.cpu.toFixed(1).padStart(5)} ms  ${t.what}`,
        );
        for (const [fn, ms] of t.functions.slice(0, TOP))
          console.log(`      ${ms.toFixed(1).padStart(6)} ms  ${fn}`);
      }
    }
  } finally {
    await browser.close();
    for (const stop of stops) await stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
