/**
 * `npm run cluster`: N stateless API instances on one PostgreSQL database behind nginx (Debian's
 * package), the way the app scales out (README "Scale-out"). Serves until Ctrl-C.
 *   npm run cluster -- [--instances N (2)] [--port P (8080)] [--database postgres://… ]
 * The database defaults to `bourse_cluster` on TEST_PG_URL's server (created when missing); instance i
 * listens on 127.0.0.1:P+i and believes nginx's X-Forwarded-For (TRUST_PROXY=127.0.0.1), so login
 * and sign-up limits count the phone's address. Jobs run on one instance (leader election).
 *
 * `npm run bench:cluster`: the same on a fresh database with 1,000 users, then autocannon through
 * nginx beside a bare Fastify route and one instance reached directly (printed, never asserted);
 * the database is dropped afterwards. Env: BENCH_SECONDS (5), BENCH_CONNECTIONS (64), BENCH_PORT.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  asUsers,
  buildServer,
  cpuSeconds,
  loadLine,
  measure,
  prepareDatabase,
  printRows,
  type Row,
  root,
  startBare,
  startServer,
  stopProcess,
} from './api-kit';

const NGINX = '/usr/sbin/nginx';

/**
 * A database on the PostgreSQL server every runner uses: TEST_PG_URL (README "Tests"; default the
 * local server), its database replaced by `database`.
 */
function onTestServer(database: string): string {
  const url = new URL(process.env.TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test');
  url.pathname = `/${database}`;
  return url.toString();
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
}

/** Debian's nginx; installed with apt-get when missing and we may (root). */
function ensureNginx(): void {
  if (fs.existsSync(NGINX)) return;
  if (process.getuid?.() === 0) {
    console.log("nginx is missing: installing Debian's nginx package…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    let r = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env });
    if (r.status !== 0) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
      r = spawnSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env });
    }
    if (fs.existsSync(NGINX)) return;
  }
  throw new Error('nginx not found: apt-get install -y nginx');
}

/** Creates the database of `url` when it does not exist yet. */
async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}

/** nginx in the foreground, balancing over `ports` (least connections, kept-alive upstreams). */
function startNginx(dir: string, port: number, ports: number[], workers: string): Promise<ChildProcess> {
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    fs.mkdirSync(path.join(dir, t), { recursive: true, mode: 0o777 });
  fs.chmodSync(dir, 0o755);
  const conf = `
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream bourse {
    least_conn;
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 128;
  }
  server {
    listen ${port};
    # Identity photos are at most 2 MB.
    client_max_body_size 3m;
    location / {
      proxy_pass http://bourse;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A refused connection moves to the next instance; a POST that reached one is never resent.
      proxy_next_upstream error timeout;
    }
  }
}
`;
  const file = path.join(dir, 'nginx.conf');
  fs.writeFileSync(file, conf);
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`nginx exited (${code}); see ${dir}/error.log`)));
    const started = Date.now();
    const probe = () =>
      fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => (r.ok ? resolve(child) : retry()),
        () => retry(),
      );
    const retry = () =>
      Date.now() - started > 20_000 ? reject(new Error('nginx did not answer')) : setTimeout(probe, 200);
    probe();
  });
}

/** The children of `pid` (nginx's workers). */
function childPids(pid: number | undefined): number[] {
  if (!pid) return [];
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** One autocannon run; CPU per answer summed over every instance. */
async function measureAll(
  label: string,
  opts: Parameters<typeof autocannon>[0],
  pids: (number | undefined)[],
): Promise<Row> {
  const total = () =>
    pids.reduce<number | null>((sum, pid) => {
      const s = cpuSeconds(pid);
      return sum === null || s === null ? null : sum + s;
    }, 0);
  const before = total();
  const result = await autocannon(opts);
  const after = total();
  const n = result.requests.total;
  return {
    label,
    result,
    cpuUs: before === null || after === null || n === 0 ? null : ((after - before) * 1e6) / n,
  };
}

async function main(): Promise<void> {
  const bench = process.argv.includes('--bench');
  const instances = Math.max(1, Number(arg('instances', '2')));
  const port = Number(arg('port', process.env.BENCH_PORT ?? (bench ? '4393' : '8080')));
  const base = onTestServer(bench ? `bourse_cluster_bench_${process.pid}` : 'bourse_cluster');
  const url = arg(
    'database',
    process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : base,
  );
  ensureNginx();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-cluster-'));
  const children: ChildProcess[] = [];
  const stopAll = async () => {
    for (const c of children.reverse()) await stopProcess(c);
    if (bench) await dropDatabase(url).catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ensureDatabase(url);
    if (!fs.existsSync(path.join(root, '.build/server.mjs')) || bench) buildServer();
    const tokens = bench ? await prepareDatabase(url, 1000) : [];
    const ports = Array.from({ length: instances }, (_, i) => port + 1 + i);
    // Started together: the first to take the startup lock migrates and seeds, the rest wait for it.
    const servers = await Promise.all(
      ports.map((p) =>
        startServer(p, url, dir, {
          TRUST_PROXY: '127.0.0.1',
          ...(bench ? {} : { DIST_DIR: path.join(root, 'dist'), LOG_LEVEL: 'info', DEMO_USER: '1' }),
        }),
      ),
    );
    children.push(...servers);
    const nginx = await startNginx(dir, port, ports, bench ? '1' : 'auto');
    children.push(nginx);
    console.log(
      `\n  ${instances} instances (${ports.join(', ')}) behind nginx at http://127.0.0.1:${port}/ on ${url.replace(/\/\/[^@]*@/, '//***@')}`,
    );
    if (!bench) {
      console.log('  Ctrl-C stops them all.');
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      return;
    }
    const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
    const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
    const common = { connections: CONNECTIONS, duration: SECONDS };
    const barePort = port + 1 + instances;
    const bareServer = await startBare(barePort);
    children.push(bareServer);
    console.log(`  before: ${loadLine()}`);
    const bare = await measure(
      'bare Fastify JSON route',
      { ...common, url: `http://127.0.0.1:${barePort}/bare` },
      bareServer.pid,
    );
    const lb = `http://127.0.0.1:${port}`;
    const one = `http://127.0.0.1:${ports[0]}`;
    // CPU is summed over the instances: the column is the cluster's CPU per answer.
    const rows: Row[] = [bare];
    // Through nginx every row of a polling phone (SPEC's intervals, README "Capacity"), then one
    // instance directly for the balancer's share.
    const nginxPids = [nginx.pid, ...childPids(nginx.pid)];
    const nginxCpu: string[] = [];
    const routes: Array<[string, { url: string }]> = [
      ['/healthz', { url: `${lb}/healthz` }],
      ['quote (snapshot)', { url: `${lb}/api/v2/quote?symbol=RELIANCE.NS` }],
      ['stock/list (snapshot)', { url: `${lb}/api/v2/stock/list?market=IN` }],
      ['user/info', asUsers(`${lb}/api`, '/stock/success/v2/user/info', tokens)],
      ['v2/balance', asUsers(`${lb}/api`, '/stock/success/v2/balance', tokens)],
      ['unread-count', asUsers(`${lb}/api`, '/stock/success/user_message/unread-count', tokens)],
    ];
    for (const [label, opts] of routes) {
      const before = nginxPids.map((p) => cpuSeconds(p) ?? 0).reduce((a, b) => a + b, 0);
      const row = await measureAll(
        `nginx → ${instances}: ${label}`,
        { ...common, ...opts },
        servers.map((s) => s.pid),
      );
      const after = nginxPids.map((p) => cpuSeconds(p) ?? 0).reduce((a, b) => a + b, 0);
      nginxCpu.push(
        `${label} ${(((after - before) * 1e6) / Math.max(1, row.result.requests.total)).toFixed(1)}`,
      );
      rows.push(row);
    }
    rows.push(
      await measureAll('one instance: /healthz', { ...common, url: `${one}/healthz` }, [servers[0]?.pid]),
    );
    rows.push(
      await measureAll(
        'one instance: user/info',
        { ...common, ...asUsers(`${one}/api`, '/stock/success/v2/user/info', tokens) },
        [servers[0]?.pid],
      ),
    );
    printRows(rows, bare);
    console.log(`  after: ${loadLine()}`);
    console.log("  (CPU µs/req: the instances' CPU per answer; PostgreSQL's own is not counted)");
    console.log(`  nginx CPU µs/req: ${nginxCpu.join(', ')}`);
  } finally {
    await stopAll();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
