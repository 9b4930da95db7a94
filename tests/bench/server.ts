/**
 * `npm run bench:server`: API throughput over loopback (printed, never asserted).
 *
 * A fresh SQLite database (WAL, synchronous=FULL, as in production) is migrated and seeded, then
 * given 1,000 users, each with a session and money; the real server (the bundle `npm start` runs)
 * is in its own process, and autocannon (64 connections) measures the app's hottest calls —
 * market polling from the per-tick snapshot (with and without the ETag, with and without gzip),
 * user info, balance, the two unread counts, bill list, news list — and order placement (dealBuy with a
 * fresh Idempotency-Key per request, rotating over the users). Each is compared with a bare
 * Fastify JSON route measured in the same run (and with the API's security headers added: what the
 * headers alone cost), and each row has the server's CPU time per answer
 * (steadier than req/s on a shared machine). The ledger audit runs on the database afterwards.
 * Env: BENCH_SECONDS (default 5), BENCH_CONNECTIONS (64), BENCH_PORT (4391; the bare routes use
 * the next two ports), SQLITE_GROUP_COMMIT (passed to the server), BENCH_ONLY (comma-separated parts
 * of row labels, e.g. `healthz,user/info,balance,unread`: only those rows, the bare route always).
 */

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../server/db/index';
import { securityHeaders } from '../../server/lib/security-headers';
import { auditLedger } from '../../server/wallet/audit';
import {
  asUsers,
  buildServer,
  buysAsUsers,
  loadLine,
  measure,
  prepareDatabase,
  printRows,
  type Row,
  startBare,
  startServer,
  stopProcess,
} from './api-kit';

const USERS = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const PORT = Number(process.env.BENCH_PORT ?? 4391);
const BARE_PORT = PORT + 1;
const HEADED_PORT = PORT + 2;
const SYMBOL = 'RELIANCE.NS';
/** What a browser sends: the snapshot answers come compressed when this is present. */
const GZIP = { 'accept-encoding': 'gzip, deflate, br' };
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const wanted = (label: string) => ONLY.length === 0 || ONLY.some((part) => label.includes(part));

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-'));
  const url = `sqlite:${path.join(dir, 'bench.db')}`;
  const children: ChildProcess[] = [];
  try {
    const group = process.env.SQLITE_GROUP_COMMIT === '0' ? 'group commit off' : 'group commit on';
    console.log(
      `Server bench: ${USERS} users, ${CONNECTIONS} connections, ${SECONDS} s per route, SQLite (synchronous=FULL, ${group})`,
    );
    console.log(`  before: ${loadLine()}`);
    buildServer();
    let t0 = performance.now();
    const tokens = await prepareDatabase(url, USERS);
    console.log(`  database ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    t0 = performance.now();
    const server = await startServer(PORT, url, dir);
    const bareServer = await startBare(BARE_PORT);
    // The same bare route sending the API's security headers: the floor no API answer can go below
    // while it sends them (the goal: /healthz at 80 % of bare, every header kept).
    const headedServer = await startBare(HEADED_PORT, [], securityHeaders({ hsts: false, api: true }));
    children.push(server, bareServer, headedServer);
    console.log(`  server up in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const base = `http://127.0.0.1:${PORT}`;
    const api = `${base}/api`;
    const quoteUrl = `${api}/v2/quote?symbol=${SYMBOL}`;
    const listUrl = `${api}/v2/stock/list?market=IN`;
    const etag = (await fetch(quoteUrl)).headers.get('etag') ?? '';
    const common = { connections: CONNECTIONS, duration: SECONDS };
    const run = (label: string, opts: object) =>
      measure(label, { ...common, ...opts } as Parameters<typeof measure>[1], server.pid);
    const rows: Row[] = [];
    /** Measures a row unless BENCH_ONLY leaves it out. */
    const add = async (label: string, opts: object) => {
      if (!wanted(label)) return null;
      const row = await run(label, opts);
      rows.push(row);
      return row;
    };

    const bare = await measure(
      'bare Fastify JSON route',
      { ...common, url: `http://127.0.0.1:${BARE_PORT}/bare` },
      bareServer.pid,
    );
    rows.push(bare);
    rows.push(
      await measure(
        'bare route + security headers',
        { ...common, url: `http://127.0.0.1:${HEADED_PORT}/bare` },
        headedServer.pid,
      ),
    );
    await add('GET /healthz', { url: `${base}/healthz` });
    await add('GET /v2/quote (snapshot)', { url: quoteUrl });
    // The app revalidates with If-None-Match: an unchanged answer within a tick costs a 304.
    const revalidated = await add('GET /v2/quote (If-None-Match)', {
      url: quoteUrl,
      headers: { 'if-none-match': etag },
    });
    await add('GET /v2/stock/list (snapshot)', { url: listUrl });
    await add('GET /v2/stock/list (snapshot, gzip)', { url: listUrl, headers: GZIP });
    await add('GET /stock/new/list', { url: `${api}/stock/new/list?page=1` });
    await add('GET user/info', asUsers(api, '/stock/success/v2/user/info', tokens));
    await add('GET v2/balance', asUsers(api, '/stock/success/v2/balance', tokens));
    await add('GET unread-count', asUsers(api, '/stock/success/user_message/unread-count', tokens));
    await add(
      'GET notification unread-count',
      asUsers(api, '/stock/success/notification/unread-count', tokens),
    );
    await add('GET v2/bill', asUsers(api, '/stock/success/v2/bill?type=all&page=1', tokens));

    // Order placement: the price seen is refreshed from the quote as the market ticks.
    let buy: Row | null = null;
    if (wanted('POST deal/buy')) {
      const buys = await buysAsUsers(api, SYMBOL, tokens, 'bench');
      buy = await add('POST deal/buy (Idempotency-Key)', { url: buys.url, requests: buys.requests });
      buys.stop();
    }
    printRows(rows, bare);
    console.log(`\n  after: ${loadLine()}`);

    if (revalidated) {
      const snapshot = revalidated.result;
      console.log(
        `  304 answers on revalidation: ${snapshot.non2xx} of ${snapshot.requests.total} (a tick changes the ETag)`,
      );
    }

    const database = createDatabase(url);
    t0 = performance.now();
    const report = await auditLedger(database.db);
    const orders = await database.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await database.close();
    console.log(
      `  orders written: ${Number(orders.n)} (answers 2xx: ${buy?.result['2xx'] ?? 0}); ledger audit of ${report.postings} postings: ` +
        `${report.problems.length === 0 ? 'OK' : `${report.problems.length} problems`} in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
    );
    for (const p of report.problems.slice(0, 10)) console.log(`    ✗ ${p}`);
  } finally {
    for (const c of children) await stopProcess(c);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
