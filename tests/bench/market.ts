/**
 * `npm run bench:market`: figures for the market data (printed, never asserted).
 *   1. building 5 years of daily history for the whole catalogue, cold;
 *   2. one simulator tick for 2,000 instruments (aim ≤ 2 ms), steady and at a session's open;
 *   3. the /v2/yahoo answer with 5 years of daily bars: first, from the snapshot, after a tick;
 *   4. server start to ready (aim ≤ 2 s): a fresh database (migrate + seed) and a restart.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DAY_MS } from '../../server/market/hours';
import { createSimulator } from '../../server/market/simulator/index';
import { type Spec, UNIVERSE } from '../../server/market/universe';
import { startTestServer } from '../support/server';

const SEED = 20260101;
const PORT = Number(process.env.E2E_PORT ?? process.env.BENCH_PORT ?? 4331);
const ms = (t0: number) => performance.now() - t0;
const fmt = (v: number) => `${v.toFixed(v < 10 ? 3 : 1)} ms`;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(58)} ${value}`);

/** The catalogue repeated with renamed symbols until it has `n` listed instruments. */
function bigUniverse(n: number): Spec[] {
  const base = UNIVERSE.filter((s) => !s.ipo);
  return Array.from({ length: n }, (_, i) => {
    const s = base[i % base.length]!;
    const copy = Math.floor(i / base.length);
    return { ...s, id: i + 1, symbol: copy ? `${s.symbol}~${copy}` : s.symbol };
  });
}

/** A Wednesday at `hhmm` UTC after now. */
function wednesday(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  let d = Math.floor(Date.now() / DAY_MS) + 1;
  while ((d + 4) % 7 !== 3) d++;
  return d * DAY_MS + (h * 60 + m) * 60_000;
}

function history(): void {
  console.log('\n1. Daily history, cold (5 years and more: from 2018-01-01)');
  for (const [label, universe] of [
    [`catalogue (${UNIVERSE.filter((s) => !s.ipo).length} instruments)`, undefined],
    ['2,000 instruments', bigUniverse(2000)],
  ] as const) {
    const now = wednesday('05:30');
    const sim = createSimulator({
      seed: SEED,
      tickMs: 1000,
      now: () => now,
      ...(universe ? { universe } : {}),
    });
    let t0 = performance.now();
    sim.sync();
    const first = ms(t0);
    t0 = performance.now();
    let bars = 0;
    for (const ins of sim.instruments()) bars += sim.candles(ins.symbol, '1d').length;
    const all = ms(t0);
    line(`${label}: first tick (every close to today)`, fmt(first));
    line(`${label}: all daily bars as candles (${bars.toLocaleString('en')} bars)`, fmt(all));
  }
}

function ticks(): void {
  console.log('\n2. One tick for 2,000 instruments (aim ≤ 2 ms)');
  for (const [label, hhmm] of [
    ['NSE, forex and futures live', '05:30'],
    ['US, forex and futures live', '15:00'],
  ] as const) {
    let now = wednesday(hhmm);
    const sim = createSimulator({ seed: SEED, tickMs: 1000, now: () => now, universe: bigUniverse(2000) });
    sim.sync();
    const times: number[] = [];
    for (let i = 0; i < 600; i++) {
      now += 1000;
      const t0 = performance.now();
      sim.sync();
      times.push(ms(t0));
    }
    const warm = times.slice(60).sort((a, b) => a - b);
    const mean = warm.reduce((s, t) => s + t, 0) / warm.length;
    line(`${label}: mean of 540 ticks`, fmt(mean));
    line(`${label}: median / p99 / max`, `${fmt(warm[270]!)} / ${fmt(warm[534]!)} / ${fmt(warm.at(-1)!)}`);
  }
  // A session's minute paths are built on the ticks of the 30 s before its open, a share each.
  const nse = bigUniverse(2000).filter((s) => s.schedule === 'NSE').length;
  let now = wednesday('03:44');
  const sim = createSimulator({ seed: SEED, tickMs: 1000, now: () => now, universe: bigUniverse(2000) });
  sim.sync();
  const around: number[] = [];
  for (let i = 0; i < 60; i++) {
    now += 1000;
    const t0 = performance.now();
    sim.sync();
    around.push(ms(t0));
  }
  const worst = Math.max(...around.slice(20));
  line(`the minute before the NSE open (${nse} paths built): worst tick`, fmt(worst));
  line('  the opening tick itself', fmt(around[59]!));
  // A clock that jumps over those 30 s (a test advancing it): the first tick builds them all.
  now = wednesday('03:44');
  const jump = createSimulator({ seed: SEED, tickMs: 1000, now: () => now, universe: bigUniverse(2000) });
  jump.sync();
  now = wednesday('03:45') + 1000;
  const t0 = performance.now();
  jump.sync();
  line('a tick a second after the open, paths built on the spot', fmt(ms(t0)));
}

async function yahoo(): Promise<void> {
  console.log('\n3. /v2/yahoo with 5 years of daily bars (RELIANCE.NS, mold 1d)');
  const s = await startTestServer('sqlite');
  try {
    s.clock.advance(wednesday('05:30') - s.clock.now());
    const url = '/api/v2/yahoo?symbol=RELIANCE.NS&mold=1d';
    let t0 = performance.now();
    let res = await s.app.inject({ url });
    line(
      `first answer (${res.json().data.rows.length} bars, ${(res.body.length / 1024).toFixed(0)} KiB)`,
      fmt(ms(t0)),
    );
    const n = 500;
    t0 = performance.now();
    for (let i = 0; i < n; i++) res = await s.app.inject({ url });
    line('same tick, from the snapshot (mean of 500)', fmt(ms(t0) / n));
    const etag = String(res.headers.etag);
    t0 = performance.now();
    for (let i = 0; i < n; i++) await s.app.inject({ url, headers: { 'if-none-match': etag } });
    line('same tick, If-None-Match → 304 (mean of 500)', fmt(ms(t0) / n));
    const misses: number[] = [];
    for (let i = 0; i < 50; i++) {
      s.clock.advance(1000);
      // The market's own tick is measured above; this is the route's share.
      s.deps.market.sync();
      t0 = performance.now();
      await s.app.inject({ url });
      misses.push(ms(t0));
    }
    line(
      'first request after a tick: rebuilt, history kept as text (mean of 50)',
      fmt(misses.reduce((a, b) => a + b, 0) / 50),
    );
  } finally {
    await s.close();
  }
}

async function waitFor(url: string, deadline: number): Promise<void> {
  while (performance.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${url} not ready`);
}

async function startToReady(dir: string, label: string): Promise<void> {
  const env = {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: `sqlite:${path.join(dir, 'bench.db')}`,
    DIST_DIR: path.join(dir, 'no-dist'),
    UPLOADS_DIR: path.join(dir, 'uploads'),
    LOG_LEVEL: 'warn',
  };
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  try {
    await waitFor(`http://127.0.0.1:${PORT}/healthz`, t0 + 30_000);
    const ready = ms(t0);
    await waitFor(`http://127.0.0.1:${PORT}/api/v2/stock/list?market=IN`, t0 + 30_000);
    const own = /ready in (\d+) ms/.exec(out)?.[1];
    line(`${label}: spawn → /healthz answers`, fmt(ready));
    line(`${label}: spawn → first market list answered`, fmt(ms(t0)));
    if (own) line(`${label}: the server's own "ready in" (after module loading)`, `${own} ms`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function startup(): Promise<void> {
  console.log(`\n4. Server start to ready (aim ≤ 2 s; node + tsx, SQLite, port ${PORT})`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-'));
  try {
    await startToReady(dir, 'fresh database (migrate, seed, demo user)');
    await startToReady(dir, 'restart on that database');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `Market benchmark — node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'})`,
);
history();
ticks();
await yahoo();
await startup();
