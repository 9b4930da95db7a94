/**
 * `npm run bench:server`: API throughput over loopback (printed, never asserted).
 *
 * A fresh SQLite database (WAL, synchronous=FULL, as in production) is migrated and seeded, then
 * given 1,000 users, each with a session and money; the real server (`server/main.ts`) runs in its
 * own process, and autocannon (100 connections) measures the app's hottest calls — market polling
 * from the per-tick snapshot (with and without the ETag), user info, balance, unread count, bill list,
 * news list —
 * and order placement (dealBuy with a fresh Idempotency-Key per request, rotating over the users).
 * Each is compared with a bare Fastify JSON route measured in the same run. The ledger audit runs
 * on the database afterwards. Env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (100),
 * BENCH_PORT (4391; the bare route uses the next port), SQLITE_GROUP_COMMIT=1 (passed to the server).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { loadConfig } from '../../server/config';
import { createDatabase, migrate, withTx } from '../../server/db/index';
import { seed } from '../../server/db/seed';
import type { Deps } from '../../server/deps';
import { auditLedger } from '../../server/lib/audit';
import { newToken, sha256 } from '../../server/lib/auth';
import { systemClock } from '../../server/lib/clock';
import { post } from '../../server/lib/ledger';
import { createMarket } from '../../server/market/index';
import { unitsToMinor } from '../../src/shared/money';

const USERS = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const PORT = Number(process.env.BENCH_PORT ?? 4391);
const BARE_PORT = PORT + 1;
const SYMBOL = 'RELIANCE.NS';
const root = path.resolve(import.meta.dirname, '../..');

async function prepareDatabase(url: string): Promise<string[]> {
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' });
  const database = createDatabase(url);
  await migrate(database);
  const clock = systemClock();
  const market = createMarket(config, clock.now);
  const deps: Deps = { config, database, clock, market };
  await seed(deps);
  market.stop();
  const tokens: string[] = [];
  const ids: number[] = [];
  const now = clock.now();
  await withTx(database, async (trx) => {
    for (let i = 0; i < USERS; i++) {
      const user = await trx
        .insertInto('users')
        .values({
          phone: `6${String(i).padStart(9, '0')}`,
          // Nobody logs in during the bench: sessions are made directly below.
          password_hash: 'bench:no-login',
          no: `B2${String(i).padStart(7, '0')}`,
          img: null,
          balance: 0,
          fund_password_hash: null,
          fund_password_fails: 0,
          fund_password_locked_until: null,
          credit_score: 100,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(user.id);
      await post(trx, {
        userId: user.id,
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
          user_id: user.id,
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

function start(
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
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code) => reject(new Error(`${label} exited (${code}):\n${out}`)));
    setTimeout(() => reject(new Error(`${label} did not start:\n${out}`)), 60_000).unref();
  });
}

const BARE = `
const app = require('fastify')();
app.get('/bare', async () => ({ msg: 'ok', data: { hello: 'world' } }));
app.listen({ port: ${BARE_PORT}, host: '127.0.0.1' }).then(() => console.log('bare ready'));
`;

interface Row {
  label: string;
  result: Result;
  /** Server CPU time (user + system) per answered request, µs; null where /proc is missing. */
  cpuUs: number | null;
}

/**
 * CPU seconds a process has used so far (Linux /proc). On a machine shared with other work,
 * req/s and latency move with the load; the CPU a route costs per request moves far less.
 */
function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat, counted from the state (field 3) here.
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

async function run(label: string, opts: Parameters<typeof autocannon>[0], pid?: number): Promise<Row> {
  const before = cpuSeconds(pid);
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
  const after = cpuSeconds(pid);
  const cpuUs =
    before === null || after === null || result.requests.total === 0
      ? null
      : ((after - before) * 1e6) / result.requests.total;
  return { label, result, cpuUs };
}

function print(rows: Row[], bare: Row): void {
  const head = `  ${'route'.padEnd(34)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'× bare'.padStart(7)} ${'non-2xx'.padStart(8)} ${'CPU µs/req'.padStart(11)}`;
  console.log(`\n${head}\n  ${'-'.repeat(head.length - 2)}`);
  for (const { label, result: r, cpuUs } of rows) {
    const ratio = r.requests.average / bare.result.requests.average;
    console.log(
      `  ${label.padEnd(34)} ${r.requests.average.toFixed(0).padStart(9)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)} ${`${(ratio * 100).toFixed(0)}%`.padStart(7)} ${String(r.non2xx + r.errors).padStart(8)} ${(cpuUs === null ? '-' : cpuUs.toFixed(0)).padStart(11)}`,
    );
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-'));
  const url = `sqlite:${path.join(dir, 'bench.db')}`;
  const children: ChildProcess[] = [];
  try {
    const group = process.env.SQLITE_GROUP_COMMIT === '1' ? 'group commit on' : 'group commit off';
    console.log(
      `Server bench: ${USERS} users, ${CONNECTIONS} connections, ${SECONDS} s per route, SQLite (synchronous=FULL, ${group}) ${url}`,
    );
    let t0 = performance.now();
    const tokens = await prepareDatabase(url);
    console.log(`  database ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    t0 = performance.now();
    children.push(
      await start(
        'server',
        ['--import', 'tsx', 'server/main.ts'],
        {
          DATABASE_URL: url,
          PORT: String(PORT),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          DIST_DIR: path.join(dir, 'no-dist'),
          UPLOADS_DIR: path.join(dir, 'uploads'),
          DEMO_USER: '0',
        },
        /Bourse is running/,
      ),
      await start('bare fastify', ['-e', BARE], {}, /bare ready/),
    );
    console.log(`  server up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const base = `http://127.0.0.1:${PORT}`;
    const api = `${base}/api`;
    let next = 0;
    const rotate = () => tokens[next++ % tokens.length]!;
    const perUser = (p: string) => ({
      url: `${api}${p}`,
      requests: [
        {
          method: 'GET',
          path: `/api${p}`,
          setupRequest: (req: object) => ({ ...req, headers: { token: rotate() } }),
        },
      ],
    });
    const quoteUrl = `${api}/v2/quote?symbol=${SYMBOL}`;
    const etag = (await fetch(quoteUrl)).headers.get('etag') ?? '';

    const [server, bareServer] = children;
    const bare = await run(
      'bare Fastify JSON route',
      { url: `http://127.0.0.1:${BARE_PORT}/bare` },
      bareServer?.pid,
    );
    const measure = (label: string, opts: Parameters<typeof autocannon>[0]) => run(label, opts, server?.pid);
    const rows: Row[] = [bare];
    rows.push(await measure('GET /healthz', { url: `${base}/healthz` }));
    rows.push(await measure('GET /v2/quote (snapshot, 200)', { url: quoteUrl }));
    // The app revalidates with If-None-Match: an unchanged answer within a tick costs a 304.
    const revalidated = await measure('GET /v2/quote (If-None-Match)', {
      url: quoteUrl,
      headers: { 'if-none-match': etag },
    });
    rows.push(revalidated);
    rows.push(await measure('GET /v2/stock/list (snapshot)', { url: `${api}/v2/stock/list?market=IN` }));
    rows.push(await measure('GET /stock/new/list', { url: `${api}/stock/new/list?page=1` }));
    rows.push(await measure('GET user/info', perUser('/stock/success/v2/user/info')));
    rows.push(await measure('GET v2/balance', perUser('/stock/success/v2/balance')));
    rows.push(await measure('GET unread-count', perUser('/stock/success/user_message/unread-count')));
    rows.push(await measure('GET v2/bill', perUser('/stock/success/v2/bill?type=all&page=1')));

    // Order placement: the price seen is refreshed from the quote as the market ticks.
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
    const buy = await measure('POST deal/buy (Idempotency-Key)', {
      url: `${api}/stock/success/deal/buy`,
      requests: [
        {
          method: 'POST',
          path: '/api/stock/success/deal/buy',
          setupRequest: (req: object) => ({
            ...req,
            headers: {
              token: rotate(),
              'content-type': 'application/json',
              'idempotency-key': `bench-${process.pid}-${keys++}`,
            },
            body: JSON.stringify({ tag: SYMBOL, count: 1, price, mold: 'stock' }),
          }),
        },
      ],
    });
    clearInterval(refresh);
    rows.push(buy);
    print(rows, bare);

    const snapshot = revalidated.result;
    console.log(
      `\n  304 answers on revalidation: ${snapshot.non2xx} of ${snapshot.requests.total} (a tick changes the ETag)`,
    );

    const database = createDatabase(url);
    t0 = performance.now();
    const report = await auditLedger(database.db);
    const orders = await database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await database.close();
    console.log(
      `  orders written: ${Number(orders.n)} (answers 2xx: ${buy.result['2xx']}); ledger audit of ${report.postings} postings: ` +
        `${report.problems.length === 0 ? 'OK' : `${report.problems.length} problems`} in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
    );
    for (const p of report.problems.slice(0, 10)) console.log(`    ✗ ${p}`);
  } finally {
    for (const c of children) if (c.pid) process.kill(c.pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
