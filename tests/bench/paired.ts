/**
 * `node --import tsx tests/bench/paired.ts <base-revision>`: the API's hot answers before and after
 * a change, measured side by side (printed, never asserted). The server bundle of `<base-revision>`
 * (a commit, e.g. `HEAD~2` or `main`) and the working tree's each run on a database migrated and
 * seeded by their own code (1,000 users with sessions), beside the bare Fastify route; rounds go
 * bare, then user info and the market list on both servers in alternating order. Each figure is
 * against the same round's bare route, and the pair is the point: on a machine shared with other
 * work one round's ratio swings from half to double, but the two servers of a round see the same
 * load, so which one costs less shows in every round. Env: BENCH_ROUNDS (5), BENCH_SECONDS (3),
 * BENCH_CONNECTIONS (64), BENCH_PORT (4500; the next three are used too).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  asUsers,
  buildServer,
  loadLine,
  measure,
  prepareDatabase,
  root,
  startBare,
  startProcess,
  stopProcess,
} from './api-kit';

const BASE = process.argv[2];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PORT = Number(process.env.BENCH_PORT ?? 4500);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** The base revision's tree under .tmp (inside the project, so it finds the same node_modules), bundled. */
function baseTree(revision: string): string {
  const dir = path.join(root, '.tmp/paired-base');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['archive', revision], { cwd: root, maxBuffer: 1 << 30 });
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr}`);
  const built = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: dir, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`the base revision's build:server failed`);
  return dir;
}

/** Its database, migrated and seeded by the base revision's own code (its migrations may differ). */
function prepareBase(dir: string, url: string): string[] {
  const out = path.join(dir, 'tokens.json');
  const script = `import('./tests/bench/api-kit.ts').then((k) => k.prepareDatabase(${JSON.stringify(url)}, 1000)).then((t) => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(t)))`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) throw new Error("the base revision's database could not be prepared");
  return JSON.parse(fs.readFileSync(out, 'utf8')) as string[];
}

async function main(): Promise<void> {
  if (!BASE) throw new Error('usage: tests/bench/paired.ts <base-revision>');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-paired-'));
  const children = [];
  try {
    const baseDir = baseTree(BASE);
    buildServer();
    const urls = { base: `sqlite:${path.join(tmp, 'base.db')}`, now: `sqlite:${path.join(tmp, 'now.db')}` };
    const tokens = { base: prepareBase(baseDir, urls.base), now: await prepareDatabase(urls.now, 1000) };
    const env = (which: 'base' | 'now', port: number) => ({
      DATABASE_URL: urls[which],
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DIST_DIR: path.join(tmp, 'no-dist'),
      UPLOADS_DIR: path.join(tmp, `uploads-${which}`),
      DEMO_USER: '0',
    });
    const servers = {
      base: await startProcess(
        'base server',
        [path.join(baseDir, '.build/server.mjs')],
        env('base', PORT),
        /Bourse is running/,
      ),
      now: await startProcess(
        'server',
        [path.join(root, '.build/server.mjs')],
        env('now', PORT + 1),
        /Bourse is running/,
      ),
    };
    const ports = { base: PORT, now: PORT + 1 };
    const bare = await startBare(PORT + 2);
    children.push(servers.base, servers.now, bare);
    const rows = new Map<string, { ratio: number[]; cpu: number[]; p99: number[] }>();
    const add = (key: string, ratio: number, cpu: number, p99: number) => {
      const row = rows.get(key) ?? { ratio: [], cpu: [], p99: [] };
      row.ratio.push(ratio);
      row.cpu.push(cpu);
      row.p99.push(p99);
      rows.set(key, row);
    };
    const common = { connections: CONNECTIONS, duration: SECONDS };
    console.log(`paired: ${BASE} against the working tree; before: ${loadLine()}`);
    for (let r = 0; r < ROUNDS; r++) {
      const reference = await measure(
        'bare',
        { ...common, url: `http://127.0.0.1:${PORT + 2}/bare` },
        bare.pid,
      );
      add('bare', 100, reference.cpuUs ?? Number.NaN, reference.result.latency.p99);
      const order = r % 2 === 0 ? (['base', 'now'] as const) : (['now', 'base'] as const);
      for (const route of ['info', 'list'] as const)
        for (const which of order) {
          const api = `http://127.0.0.1:${ports[which]}/api`;
          const opts =
            route === 'info'
              ? asUsers(api, '/stock/success/v2/user/info', tokens[which])
              : { url: `${api}/v2/stock/list?market=IN` };
          const row = await measure(route, { ...common, ...opts }, servers[which].pid);
          if (row.result.non2xx + row.result.errors > 0)
            console.log(`  ${route} (${which}): ${row.result.non2xx + row.result.errors} answers not 2xx`);
          add(
            `${route} ${which}`,
            (100 * row.result.requests.average) / reference.result.requests.average,
            (row.cpuUs ?? Number.NaN) / (reference.cpuUs ?? Number.NaN),
            row.result.latency.p99,
          );
        }
    }
    console.log(`after: ${loadLine()}\n`);
    for (const [key, x] of rows) {
      const cpu = key === 'bare' ? `${median(x.cpu).toFixed(1)} µs` : `${median(x.cpu).toFixed(2)} × bare's`;
      console.log(
        `  ${key.padEnd(10)} ${x.ratio.map((v) => v.toFixed(0)).join('/')} → ${median(x.ratio).toFixed(0)} % of bare; ` +
          `CPU per answer ${cpu} (${x.cpu.map((v) => v.toFixed(key === 'bare' ? 0 : 2)).join('/')}); p99 ${median(x.p99)} ms`,
      );
    }
    // Round by round, the working tree's figure over the base's: the comparison the load cancels in.
    for (const route of ['info', 'list']) {
      const base = rows.get(`${route} base`);
      const now = rows.get(`${route} now`);
      if (!base || !now) continue;
      const speed = now.ratio.map((v, i) => v / (base.ratio[i] ?? Number.NaN));
      const cpu = now.cpu.map((v, i) => v / (base.cpu[i] ?? Number.NaN));
      console.log(
        `  ${route}: now/base throughput ${speed.map((v) => v.toFixed(2)).join('/')} → ${median(speed).toFixed(2)}; ` +
          `CPU per answer ${cpu.map((v) => v.toFixed(2)).join('/')} → ${median(cpu).toFixed(2)}`,
      );
    }
  } finally {
    for (const c of children) await stopProcess(c);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
