/**
 * `npm run bench:profile -- <route> [seconds]`: where one route's CPU goes (printed, never asserted).
 *
 * The real server (the bundle `npm start` runs) on a fresh SQLite database with 1,000 users runs
 * under V8's CPU profiler while autocannon (64 connections) calls `<route>`; only the samples taken
 * during the load are counted. Prints the server's CPU per answer, its minor garbage collections (bytes promoted per answer) and the functions and packages
 * that take it, self and inclusive. Routes: a path (`/healthz`, `/api/v2/stock/list?market=IN`),
 * `user:<path>` to call it as the users in turn (`user:/api/stock/success/v2/user/info`), or `buy`
 * (dealBuy with fresh Idempotency-Keys), or `bare` (the bare Fastify route of bench:server, the
 * reference: what any answer costs). Env: BENCH_PORT (4391), BENCH_CONNECTIONS (64), PROFILE_TOP
 * (rows per table, 30), PROFILE_OUT (a file to keep the .cpuprofile in, for Chrome DevTools),
 * PROFILE_PG=1 (the database is a fresh one on TEST_PG_URL's PostgreSQL server, dropped afterwards,
 * instead of SQLite), and anything the server reads (e.g. SQLITE_GROUP_COMMIT=0).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Request } from 'autocannon';
import pg from 'pg';
import {
  asUsers,
  buildServer,
  loadLine,
  prepareDatabase,
  startBare,
  startServer,
  stopProcess,
} from './api-kit';

const route = process.argv[2] ?? '/healthz';
const SECONDS = Number(process.argv[3] ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 4391);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const TOP = Number(process.env.PROFILE_TOP ?? 30);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Node/V8 names for time not spent running JavaScript or native code of ours. */
const IDLE = new Set(['(idle)', '(program)']);

function where(url: string): string {
  if (!url) return '';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*?\/(\.build|server|src)\//, '$1/');
}

function pkg(url: string): string {
  const w = where(url);
  if (!url) return '(native)';
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?([^/]+).*/, 'node:$2');
  if (url.includes('node_modules/'))
    return w.startsWith('@') ? w.split('/').slice(0, 2).join('/') : (w.split('/')[0] ?? w);
  return 'app';
}

function analyse(profile: Profile, from: number, to: number, answered: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfTime = new Map<number, number>();
  let t = profile.startTime;
  let busy = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (t < from || t > to) continue;
    const id = profile.samples[i] as number;
    const name = byId.get(id)?.callFrame.functionName ?? '';
    if (IDLE.has(name)) idle += next;
    else busy += next;
    selfTime.set(id, (selfTime.get(id) ?? 0) + next);
  }
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${where(n.callFrame.url)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  const self = new Map<string, number>();
  const packages = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const node = byId.get(id);
    if (!node || IDLE.has(node.callFrame.functionName)) continue;
    self.set(label(node), (self.get(label(node)) ?? 0) + time);
    packages.set(pkg(node.callFrame.url), (packages.get(pkg(node.callFrame.url)) ?? 0) + time);
    // Inclusive: each distinct frame on the stack once.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at);
      if (!n) break;
      const l = label(n);
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + time);
    }
  }
  const share = (x: number) => `${((100 * x) / busy).toFixed(1).padStart(5)} %`;
  const perAnswer = (x: number) => `${(x / answered).toFixed(2).padStart(7)} µs`;
  console.log(
    `\n  JavaScript/native CPU in the load window: ${(busy / 1000).toFixed(0)} ms busy, ${(idle / 1000).toFixed(0)} ms idle; ` +
      `${answered} answers → ${(busy / answered).toFixed(1)} µs of the main thread per answer (kernel time not included)`,
  );
  const table = (title: string, m: Map<string, number>, n = TOP) => {
    console.log(`\n  ${title}   share   per answer`);
    for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`  ${share(v)} ${perAnswer(v)}  ${k}`);
  };
  table('by package (self)', packages, 15);
  table('by function (self)', self);
  table('by function (inclusive)', inclusive);
}

/**
 * Minor collections (scavenges) in the load window from V8's --trace-gc-nvp lines: how many, the
 * bytes they promoted to the old generation per answer (what outlived two of them: data kept on
 * purpose, or garbage that an old object still pointed at), and their pauses per answer.
 */
function minorCollections(log: string, answered: number): string {
  let count = 0;
  let promoted = 0;
  let pause = 0;
  for (const line of log.split('\n')) {
    if (!line.includes(' gc=s ')) continue;
    count++;
    promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
    pause += Number(/ pause=([\d.]+)/.exec(line)?.[1] ?? 0);
  }
  return `  minor collections: ${count}, promoted ${(promoted / answered).toFixed(0)} B per answer, pauses ${((pause * 1000) / answered).toFixed(2)} µs per answer`;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-profile-'));
  const profDir = path.join(dir, 'profile');
  const pgDatabase = process.env.PROFILE_PG === '1' ? await createPgDatabase() : null;
  const url = pgDatabase?.url ?? `sqlite:${path.join(dir, 'bench.db')}`;
  console.log(
    `Profile of ${route} on ${pgDatabase ? 'PostgreSQL' : 'SQLite'}: ${CONNECTIONS} connections, ${SECONDS} s; ${loadLine()}`,
  );
  buildServer();
  const tokens = await prepareDatabase(url, 1000);
  // V8 also reports each minor collection (one line each, name=value pairs): what it promoted.
  const profiler = ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--trace-gc', '--trace-gc-nvp'];
  const server =
    route === 'bare' ? await startBare(PORT, profiler) : await startServer(PORT, url, dir, {}, profiler);
  let gcLog = '';
  server.stdout?.on('data', (d: Buffer) => {
    gcLog += d.toString();
  });
  try {
    const api = `http://127.0.0.1:${PORT}`;
    let opts: Parameters<typeof autocannon>[0];
    if (route === 'bare') {
      opts = { url: `${api}/bare` };
    } else if (route === 'buy') {
      const quote = `${api}/api/v2/quote?symbol=RELIANCE.NS`;
      let price = (await (await fetch(quote)).json()).data.price as number;
      const refresh = setInterval(() => {
        fetch(quote)
          .then((r) => r.json())
          .then((a) => {
            price = a.data.price;
          })
          .catch(() => {});
      }, 500);
      refresh.unref();
      let n = 0;
      opts = {
        url: `${api}/api/stock/success/deal/buy`,
        requests: [
          {
            method: 'POST',
            path: '/api/stock/success/deal/buy',
            setupRequest: (req: Request) => ({
              ...req,
              headers: {
                token: tokens[n % tokens.length] as string,
                'content-type': 'application/json',
                'idempotency-key': `profile-${process.pid}-${n++}`,
              },
              body: JSON.stringify({ tag: 'RELIANCE.NS', count: 1, price, mold: 'stock' }),
            }),
          },
        ],
      };
    } else if (route.startsWith('user:')) {
      opts = asUsers(api, route.slice('user:'.length), tokens);
    } else {
      opts = { url: `${api}${route}` };
    }
    // Warm-up (JIT, caches), then the measured window.
    await autocannon({ ...opts, connections: CONNECTIONS, duration: 2 });
    const from = nowUs();
    const gcFrom = gcLog.length;
    const result = await autocannon({ ...opts, connections: CONNECTIONS, duration: SECONDS });
    const to = nowUs();
    const minor = minorCollections(gcLog.slice(gcFrom), result.requests.total);
    await stopProcess(server);
    const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('the server wrote no profile');
    const profile = JSON.parse(fs.readFileSync(path.join(profDir, file), 'utf8')) as Profile;
    // Kept with the load window (profile clock, µs) and the answers in it, for further analysis.
    if (process.env.PROFILE_OUT)
      fs.writeFileSync(
        process.env.PROFILE_OUT,
        JSON.stringify({ ...profile, window: { from, to, answers: result.requests.total } }),
      );
    console.log(
      `  ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}; ${loadLine()}`,
    );
    console.log(minor);
    analyse(profile, from, to, result.requests.total);
  } finally {
    await stopProcess(server);
    fs.rmSync(dir, { recursive: true, force: true });
    await pgDatabase?.drop();
  }
}

/** A new database on TEST_PG_URL's server (default the local one), and how to drop it. */
async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const name = `bourse_profile_${process.pid}`;
  const run = async (text: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
