/**
 * `npm run bench:budget [-- --update]`: the performance budget, printed in one run on one
 * machine, each figure beside its goal and the last landed figure (tests/bench/budget.json). It
 * asserts nothing: a change that touches a first screen or a per-request path quotes its output in
 * its closing note, and `--update` records the run as the last landed figures.
 *
 *   1. Lighthouse (mobile, simulated throttling: its default) on /login and on Home signed in, the
 *      median of BENCH_LH_RUNS (3): performance, Total Blocking Time, LCP.
 *   2. Initial JS per first screen (login, Home): the main thread's script files as served, gzip,
 *      and the app's own code among them (from the build's source maps).
 *   3. The API against a bare Fastify JSON route in the same run (autocannon, BENCH_CONNECTIONS 64,
 *      BENCH_SECONDS 5 each): user info (as 1,000 users in turn, none of whom buys; its p99 too), the market list
 *      (the per-tick snapshot), and durable buys (dealBuy with Idempotency-Keys; SQLite
 *      synchronous=FULL). Measured in BENCH_ROUNDS (3) rounds of bare, info, list, buy, each ratio
 *      against its own round's bare route; the medians are printed. On a shared machine the ratio
 *      moves far less than req/s.
 *
 * It builds the app with source maps into .tmp/budget/dist (BENCH_NO_BUILD=1: reuse it) and the
 * server bundle, and runs the real server on temporary SQLite databases. BENCH_PORT (4350; the API
 * bench takes the next two ports), BENCH_SKIP (comma list of 1, 2, 3), CHROME_PATH.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import {
  asUsers,
  buildServer,
  buysAsUsers,
  loadLine,
  measure,
  prepareDatabase,
  type Row,
  startBare,
  startServer,
  stopProcess,
} from './api-kit';
import { initialJs } from './first-screens';
import { failure, lighthouseMedian } from './lighthouse';
import { startBenchServer } from './server-process';

const root = path.resolve(import.meta.dirname, '../..');
const BUDGET_FILE = path.join(import.meta.dirname, 'budget.json');
const DIST = path.join(root, '.tmp/budget/dist');
const PORT = Number(process.env.BENCH_PORT ?? 4350);
const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').filter(Boolean));
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DEMO = { phone: '9876543210', password: 'demo1234' };
const UPDATE = process.argv.includes('--update');

/** A budgeted figure: its goal, which way is better, and how it prints. */
interface Goal {
  label: string;
  unit: 'score' | 'ms' | 'KB' | '%';
  better: 'higher' | 'lower';
  /** The goal; null: no goal, the figure is watched against the last landed one only. */
  goal: number | null;
}
interface Budget {
  goals: Record<string, Goal>;
  last: { commit: string; date: string; load: string; figures: Record<string, number> } | null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const figures: Record<string, number> = {};
const notes: string[] = [];

/** The demo user's session as the app keeps it (src/store/session.ts): one for the whole run. */
async function session(base: string): Promise<string> {
  const login = () =>
    fetch(`${base}/api/stock/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: DEMO.phone, password: DEMO.password }),
    });
  // A kept-alive connection the loaded server closed as the request went out: once more.
  const res = await login().catch(login);
  const t = (await res.json()).data as { token: string; id: number; user: string; login: number };
  const value = JSON.stringify({
    state: { token: t.token, userInfo: { id: t.id, user: t.user, login: t.login } },
    version: 0,
  });
  return `localStorage.setItem('bourse.session', ${JSON.stringify(value)});`;
}

function buildApp(): void {
  if (process.env.BENCH_NO_BUILD === '1' && fs.existsSync(path.join(DIST, 'index.html'))) return;
  // Hidden source maps: the same files as `npm run build` writes (same code, same names), with maps
  // beside them that say which bytes are the app's own.
  const r = spawnSync(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', '--sourcemap', 'hidden', '--outDir', DIST, '--emptyOutDir'],
    { cwd: root, stdio: 'pipe' },
  );
  if (r.status !== 0) throw new Error(`vite build failed:\n${r.stderr}`);
}

// 1 and 2: Lighthouse and initial JS, on the app served by the real server -------------------------
async function firstScreens(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-budget-'));
  const base = `http://127.0.0.1:${PORT}`;
  const stop = await startBenchServer({ port: PORT, dir, distDir: DIST });
  let signedIn: string | undefined;
  try {
    if (!SKIP.has('2')) {
      const browser = await chromium.launch({
        executablePath: CHROME,
        args: ['--no-sandbox', '--disable-gpu'],
      });
      signedIn = await session(base);
      const ctx = await browser.newContext({
        serviceWorkers: 'block',
        viewport: { width: 390, height: 844 },
        isMobile: true,
      });
      const login = await initialJs(DIST, ctx, `${base}/login`, (p) =>
        p.getByLabel('Phone number').waitFor(),
      );
      await ctx.addInitScript(signedIn);
      const home = await initialJs(DIST, ctx, `${base}/`, (p) => p.getByText('Total assets').waitFor());
      await browser.close();
      for (const [name, js] of [
        ['login', login],
        ['home', home],
      ] as const) {
        figures[`js.${name}`] = js.gzip / 1024;
        if (js.ownGzip !== null) figures[`js.${name}.own`] = js.ownGzip / 1024;
        notes.push(
          `initial JS, ${name}: ${js.files.length} files on the main thread (${js.files.map((f) => f.replace(/^\/assets\/|-[\w-]{8}\.js$/g, '')).join(', ')})`,
        );
      }
    }
    if (!SKIP.has('1')) {
      signedIn ??= await session(base);
      for (const [name, url, withSession] of [
        ['login', `${base}/login`, false],
        ['home', `${base}/`, true],
      ] as const) {
        const script = signedIn;
        const lh = await lighthouseMedian(url, withSession ? async () => script : null, 'simulate', LH_RUNS);
        const lhr = lh.median;
        figures[`lh.${name}`] = Math.round((lhr.categories.performance?.score ?? 0) * 100);
        figures[`lh.${name}.tbt`] = lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN;
        figures[`lh.${name}.lcp`] = lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN;
        notes.push(
          `lighthouse ${name}: performance ${lh.performance.join('/')} (median of ${lh.performance.length}${lh.repeated ? `, ${lh.repeated} repeated` : ''})`,
        );
        for (const why of lh.runs.map(failure))
          if (why) notes.push(`  a ${name} run measured nothing: ${why}`);
      }
    }
  } finally {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// 3. The API against bare Fastify -----------------------------------------------------------------
async function api(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-budget-api-'));
  const url = `sqlite:${path.join(dir, 'bench.db')}`;
  const children = [];
  try {
    buildServer();
    // Buyers apart from the readers: each round's buys add orders to whoever makes them, and user
    // info read as the same users slowed round after round (24 → 14 → 10 %), whatever the server did.
    const tokens = await prepareDatabase(url, 2000);
    const readers = tokens.slice(0, 1000);
    const buyers = tokens.slice(1000);
    const server = await startServer(PORT + 1, url, dir);
    const bare = await startBare(PORT + 2);
    children.push(server, bare);
    const apiBase = `http://127.0.0.1:${PORT + 1}/api`;
    const common = { connections: CONNECTIONS, duration: SECONDS };
    const buys = await buysAsUsers(apiBase, 'RELIANCE.NS', buyers, 'budget');
    const routes: Array<[string, object]> = [
      ['info', asUsers(apiBase, '/stock/success/v2/user/info', readers)],
      ['list', { url: `${apiBase}/v2/stock/list?market=IN` }],
      ['buy', { url: buys.url, requests: buys.requests }],
    ];
    const ratios = new Map<string, number[]>(routes.map(([n]) => [n, []]));
    const p99 = new Map<string, number[]>(routes.map(([n]) => [n, []]));
    const failed = new Map<string, number>();
    // The server's CPU per answer (and the bare route's): steadier than req/s when the load moves.
    const cpu = new Map<string, number[]>([
      ['bare', []],
      ...routes.map(([n]) => [n, []] as [string, number[]]),
    ]);
    notes.push(`API, before: ${loadLine()}`);
    for (let r = 0; r < ROUNDS; r++) {
      const reference = await measure(
        'bare',
        { ...common, url: `http://127.0.0.1:${PORT + 2}/bare` },
        bare.pid,
      );
      if (reference.cpuUs !== null) cpu.get('bare')!.push(reference.cpuUs);
      for (const [name, opts] of routes) {
        const row: Row = await measure(
          name,
          { ...common, ...opts } as Parameters<typeof measure>[1],
          server.pid,
        );
        ratios.get(name)!.push((100 * row.result.requests.average) / reference.result.requests.average);
        p99.get(name)!.push(row.result.latency.p99);
        if (row.cpuUs !== null) cpu.get(name)!.push(row.cpuUs);
        failed.set(name, (failed.get(name) ?? 0) + row.result.non2xx + row.result.errors);
      }
    }
    buys.stop();
    notes.push(`API, after: ${loadLine()}`);
    for (const [name] of routes) {
      figures[`api.${name}`] = median(ratios.get(name)!);
      figures[`api.${name}.p99`] = median(p99.get(name)!);
      notes.push(
        `API ${name}: ${ratios
          .get(name)!
          .map((x) => `${x.toFixed(0)} %`)
          .join(', ')} of bare over ${ROUNDS} rounds; answers not 2xx: ${failed.get(name)}`,
      );
    }
    notes.push(
      `API server CPU per answer (median): ${[...cpu]
        .map(([name, xs]) => `${name} ${xs.length ? `${median(xs).toFixed(1)} µs` : '—'}`)
        .join(', ')}`,
    );
  } finally {
    for (const c of children) await stopProcess(c);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function format(value: number | undefined, unit: Goal['unit']): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  if (unit === 'KB') return `${value.toFixed(1)} KB`;
  if (unit === 'ms') return `${value.toFixed(0)} ms`;
  if (unit === '%') return `${value.toFixed(0)} %`;
  return value.toFixed(0);
}

function report(budget: Budget): void {
  const last = budget.last;
  const rows = Object.entries(budget.goals).map(([key, g]) => {
    const now = figures[key];
    const met =
      now === undefined || Number.isNaN(now) || g.goal === null
        ? ' '
        : (g.better === 'higher' ? now >= g.goal : now <= g.goal)
          ? '✓'
          : '✗';
    const goal = g.goal === null ? '—' : `${g.better === 'higher' ? '≥' : '≤'} ${format(g.goal, g.unit)}`;
    return [g.label, format(now, g.unit), `${met} ${goal}`, format(last?.figures[key], g.unit)];
  });
  const head = [
    '',
    'now',
    'goal',
    `last landed${last ? ` (${last.commit}, ${last.date}, ${last.load.replace(/ \(1 min\).*/, '')})` : ''}`,
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const print = (cells: string[]) =>
    console.log(
      `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('   ')}`,
    );
  console.log(`\n━━ bench:budget ━━ ${new Date().toISOString().slice(0, 16)}; ${loadLine()}`);
  print(head);
  for (const r of rows) print(r);
  for (const n of notes) console.log(`  · ${n}`);
}

async function main(): Promise<void> {
  const budget = JSON.parse(fs.readFileSync(BUDGET_FILE, 'utf8')) as Budget;
  console.log(`bench:budget — ${loadLine()}`);
  if (!SKIP.has('1') || !SKIP.has('2')) {
    console.log('building the app (source maps hidden)…');
    buildApp();
    await firstScreens();
  }
  if (!SKIP.has('3')) await api();
  report(budget);
  if (UPDATE) {
    const commit = spawnSync('git', ['describe', '--always', '--dirty'], { cwd: root, encoding: 'utf8' });
    budget.last = {
      commit: commit.stdout.trim(),
      date: new Date().toISOString().slice(0, 10),
      load: loadLine(),
      // Figures of a skipped part stay as they were.
      figures: { ...budget.last?.figures, ...figures },
    };
    fs.writeFileSync(BUDGET_FILE, `${JSON.stringify(budget, null, 2)}\n`);
    console.log(`\n  recorded as the last landed figures in ${path.relative(root, BUDGET_FILE)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
