import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon, { type Request, type Result } from 'autocannon';
import { unitsToMinor } from '#shared/money';
import { createUser } from '../../server/account/users';
import { loadConfig } from '../../server/config';
import { createDatabase, migrate, withTx } from '../../server/db/index';
import { seed } from '../../server/db/seed';
import { createDeps } from '../../server/deps';
import { newToken, sha256 } from '../../server/lib/auth';
import { post } from '../../server/lib/ledger';

/**
 * What the API benchmarks share (bench:server, bench:profile, bench:orders, bench:cluster): a
 * database with users, sessions and money; the real server and a bare Fastify route, each in its
 * own process; autocannon runs with the server's CPU time per answered request.
 */

export const root = path.resolve(import.meta.dirname, '../..');

/**
 * Migrates and seeds `url` and adds `users` users, each with a session (tokens returned in order),
 * 50,000,000 units of money and a few bill rows. Nobody logs in: sessions are made directly.
 */
export async function prepareDatabase(url: string, users: number): Promise<string[]> {
  // The demo user's password hashed at scrypt's lowest cost: nobody logs in with it here, and the
  // default's cost was most of this function's time (380 of 520 ms of a core).
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', SCRYPT_N: '1024' });
  const database = createDatabase(url);
  await migrate(database);
  const deps = createDeps(config, database);
  const { clock, market } = deps;
  await seed(deps);
  market.stop();
  const tokens: string[] = [];
  const ids: number[] = [];
  const now = clock.now();
  await withTx(database, async (trx) => {
    for (let i = 0; i < users; i++) {
      const userId = await createUser(trx, {
        phone: `6${String(i).padStart(9, '0')}`,
        passwordHash: 'bench:no-login',
        at: now,
        no: `B2${String(i).padStart(7, '0')}`,
      });
      ids.push(userId);
      await post(trx, {
        userId,
        amount: unitsToMinor(50_000_000),
        reason: 'recharge',
        refType: 'seed',
        at: now,
      });
      const token = newToken();
      await trx
        .insertInto('sessions')
        .values({
          token_hash: sha256(token),
          user_id: userId,
          created_at: now,
          expires_at: now + 86_400_000,
          revoked_at: null,
        })
        .execute();
      tokens.push(token);
    }
  });
  // Some bill rows per user, so the bill list has pages to read.
  await withTx(database, async (trx) => {
    for (const userId of ids)
      for (let k = 0; k < 5; k++)
        await post(trx, { userId, amount: 100 + k, reason: 'recharge', refType: 'seed', at: now + k });
  });
  await database.close();
  return tokens;
}

/** Builds the bundle `npm start` runs (.build/server.mjs), so benches measure what ships. */
export function buildServer(): void {
  const r = spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build:server failed');
}

/** Starts `node <args>` in the project folder; resolves once its output matches `ready`. */
export function startProcess(
  label: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let started = false;
    const onData = (d: Buffer) => {
      out += d.toString();
      if (!started && ready.test(out)) {
        started = true;
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      if (!started) reject(new Error(`${label} exited (${code}):\n${out}`));
    });
    setTimeout(() => {
      if (!started) reject(new Error(`${label} did not start:\n${out}`));
    }, 60_000).unref();
  });
}

/** Stops a child with SIGTERM and waits for it to exit. */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * The reference: the smallest Fastify JSON route, in its own process on `port`; with `headers`,
 * the same route sending those headers too (what the headers alone cost, bench:server).
 */
export function startBare(
  port: number,
  nodeArgs: string[] = [],
  headers: ReadonlyArray<readonly [string, string]> = [],
): Promise<ChildProcess> {
  const source = `
const app = require('fastify')();
const headers = ${JSON.stringify(headers)};
if (headers.length) app.addHook('onRequest', (req, reply, done) => { for (const [n, v] of headers) reply.raw.setHeader(n, v); done(); });
app.get('/bare', async () => ({ msg: 'ok', data: { hello: 'world' } }));
app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('bare ready'));
// An orderly exit on SIGTERM, so --cpu-prof (bench:profile bare) writes its profile.
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
`;
  return startProcess('bare fastify', [...nodeArgs, '-e', source], {}, /bare ready/);
}

/**
 * The real server: the bundle `npm start` runs (.build/server.mjs, built by the caller) on the
 * database `url`, no app shell, no demo user, logging at warn.
 */
export function startServer(
  port: number,
  url: string,
  dir: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  return startProcess(
    'server',
    [...nodeArgs, '.build/server.mjs'],
    {
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DIST_DIR: path.join(dir, 'no-dist'),
      UPLOADS_DIR: path.join(dir, 'uploads'),
      DEMO_USER: '0',
      ...env,
    },
    /Bourse is running/,
  );
}

/**
 * CPU seconds a process has used so far (Linux /proc). On a machine shared with other work,
 * req/s and latency move with the load; the CPU a route costs per request moves far less.
 */
export function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, counted from the state (field 3) here.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

export interface Row {
  label: string;
  result: Result;
  /** Server CPU time (user + system) per answered request, µs; null where /proc is missing. */
  cpuUs: number | null;
}

/** One autocannon run against a process, with that process's CPU per answered request. */
export async function measure(
  label: string,
  opts: Parameters<typeof autocannon>[0],
  pid: number | undefined,
): Promise<Row> {
  const before = cpuSeconds(pid);
  const result = await autocannon(opts);
  const after = cpuSeconds(pid);
  const answered = result.requests.total;
  const cpuUs =
    before === null || after === null || answered === 0 ? null : ((after - before) * 1e6) / answered;
  return { label, result, cpuUs };
}

/** GET `path` as the users of `tokens` in turn (each request another user's session). */
export function asUsers(
  base: string,
  pathAndQuery: string,
  tokens: string[],
  headers: Record<string, string> = {},
) {
  let next = 0;
  const url = new URL(`${base}${pathAndQuery}`);
  return {
    url: url.toString(),
    requests: [
      {
        method: 'GET',
        // The whole path: a request's path replaces the URL's (base's `/api` included).
        path: `${url.pathname}${url.search}`,
        setupRequest: (req: Request) => ({
          ...req,
          headers: { ...headers, token: tokens[next++ % tokens.length] as string },
        }),
      },
    ],
  };
}

/**
 * POST deal/buy as the users of `tokens` in turn, each with its own Idempotency-Key, at the price
 * last seen on `quoteUrl` (refreshed as the market ticks: a stale price is refused). `stop()` ends
 * the refresh.
 */
export async function buysAsUsers(apiBase: string, symbol: string, tokens: string[], keyPrefix: string) {
  const quoteUrl = `${apiBase}/v2/quote?symbol=${encodeURIComponent(symbol)}`;
  let price = (await (await fetch(quoteUrl)).json()).data.price as number;
  const refresh = setInterval(() => {
    fetch(quoteUrl)
      .then((r) => r.json())
      .then((a) => {
        price = a.data.price;
      })
      .catch(() => {});
  }, 500);
  let keys = 0;
  let next = 0;
  const url = new URL(`${apiBase}/stock/success/deal/buy`);
  return {
    url: url.toString(),
    requests: [
      {
        method: 'POST',
        path: url.pathname,
        setupRequest: (req: Request) => ({
          ...req,
          headers: {
            token: tokens[next++ % tokens.length] as string,
            'content-type': 'application/json',
            'idempotency-key': `${keyPrefix}-${process.pid}-${keys++}`,
          },
          body: JSON.stringify({ tag: symbol, count: 1, price, mold: 'stock' }),
        }),
      },
    ],
    stop: () => clearInterval(refresh),
  };
}

/** Prints rows as a table, each beside the bare route of the same run. */
export function printRows(rows: Row[], bare: Row): void {
  const head = `  ${'route'.padEnd(40)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'× bare'.padStart(7)} ${'non-2xx'.padStart(8)} ${'CPU µs/req'.padStart(11)}`;
  console.log(`\n${head}\n  ${'-'.repeat(head.length - 2)}`);
  for (const { label, result: r, cpuUs } of rows) {
    const ratio = r.requests.average / bare.result.requests.average;
    console.log(
      `  ${label.padEnd(40)} ${r.requests.average.toFixed(0).padStart(9)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${`${(ratio * 100).toFixed(0)}%`.padStart(7)} ${String(r.non2xx + r.errors).padStart(8)} ${(cpuUs === null ? '-' : cpuUs.toFixed(1)).padStart(11)}`,
    );
  }
}

/** The machine's load averages, printed beside every figure (the machine is shared). */
export function loadLine(): string {
  try {
    const [one, five] = fs.readFileSync('/proc/loadavg', 'utf8').split(' ');
    return `load ${one} (1 min), ${five} (5 min) on 2 cores`;
  } catch {
    return 'load unknown';
  }
}
