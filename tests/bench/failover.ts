import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../server/db/index';
import { auditLedger } from '../../server/wallet/audit';
import { pgServerBin, startPrivateCluster } from '../support/pg-cluster';
import { buyStream, call, freePort, startInstance, stopAll } from '../support/process';
import { prepareDatabase } from './api-kit';

/**
 * `npm run bench:failover [rounds]`: the PostgreSQL failure drill of tests/server/drill-postgres,
 * measured: two instances under a stream of buys on a private cluster, PostgreSQL killed -9 and
 * started again `rounds` times (default 5). Prints, per round, how long it was down, how many buys
 * were answered 503 meanwhile, the slowest answer, and the seconds from PostgreSQL accepting
 * connections again to each instance's first good answer; then the medians, every acknowledged buy
 * found, the audit, and the interesting part of one instance's metrics. Asserts nothing.
 */

const ROUNDS = Number(process.argv[2] ?? 5);
const SYMBOL = 'RELIANCE.NS';
const bin = pgServerBin();
if ('missing' in bin) {
  console.log(`bench:failover: ${bin.missing}`);
  process.exit(0);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cluster = await startPrivateCluster(bin.dir);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-failover-'));
try {
  const tokens = await prepareDatabase(cluster.url, 12);
  const metricsPort = await freePort();
  const env = (metrics: number) => ({
    DATABASE_URL: cluster.url,
    DIST_DIR: path.join(dir, 'no-dist'),
    UPLOADS_DIR: path.join(dir, 'uploads'),
    LOG_LEVEL: 'fatal',
    DEMO_USER: '0',
    JOBS_LEADER_RETRY_MS: '300',
    MAX_OPEN_ORDERS: '100000',
    METRICS_PORT: String(metrics),
  });
  const [a, b] = await Promise.all([
    freePort().then((port) => startInstance('A', port, env(metricsPort))),
    freePort().then(async (port) => startInstance('B', port, env(await freePort()))),
  ]);
  const price = (await call(a!, 'quote', { query: { symbol: SYMBOL } })).body.data.price as number;
  const stream = buyStream({ instances: () => [a!, b!], tokens, symbol: SYMBOL, price, connections: 8 });
  const firstGood: number[] = [];
  const each: number[] = [];
  console.log(
    `bench:failover — ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}, ${ROUNDS} rounds`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    const before = stream.acked.length;
    while (stream.acked.length < before + 50) await new Promise((r) => setTimeout(r, 20));
    const refused = stream.answers.get(503) ?? 0;
    const down = performance.now();
    await cluster.kill9();
    await new Promise((r) => setTimeout(r, 1000));
    await cluster.start();
    const back = performance.now();
    const seconds = await Promise.all(
      [a!, b!].map(async (at) => {
        for (;;) {
          const res = await call(at, 'userInfo', { token: tokens[0]! });
          if (res.status === 200) return (performance.now() - back) / 1000;
          await new Promise((r) => setTimeout(r, 10));
        }
      }),
    );
    firstGood.push(Math.min(...seconds));
    each.push(...seconds);
    console.log(
      `round ${round}: down ${((back - down) / 1000).toFixed(2)} s, ${(stream.answers.get(503) ?? 0) - refused} buys answered 503, ` +
        `back → first good answer A ${seconds[0]!.toFixed(2)} s, B ${seconds[1]!.toFixed(2)} s`,
    );
  }
  await stream.stop();
  const database = createDatabase(cluster.url);
  const ids = new Set(
    (await database.db.selectFrom('orders').select('id').execute()).map((r) => Number(r.id)),
  );
  const lost = stream.acked.filter((o) => !ids.has(o.id)).length;
  const audit = await auditLedger(database.db);
  await database.close();
  console.log(
    `median: first good answer ${median(firstGood).toFixed(2)} s after PostgreSQL is back (each instance: ${median(each).toFixed(2)} s); ` +
      `slowest answer ${(stream.slowest / 1000).toFixed(2)} s; answers ${JSON.stringify(Object.fromEntries(stream.answers))}; ` +
      `${stream.acked.length} buys acknowledged, ${lost} lost; audit ${audit.problems.length === 0 ? 'clean' : audit.problems.join('; ')}`,
  );
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  console.log('\nmetrics of A (excerpt):');
  console.log(
    text
      .split('\n')
      .filter((l) =>
        /^(bourse_(jobs_leader|job_lag_seconds|job_runs_total\{job="(orders:match|alerts:tick)"|refusals_total|http_server_errors_total|db_pool|db_query_errors|sessions_remembered|orders|ledger_audit)|bourse_http_requests_total\{route="\/api\/stock\/success\/deal\/buy"|bourse_http_request_duration_seconds_(sum|count)\{route="\/api\/stock\/success\/deal\/buy"|nodejs_eventloop_lag_p99_seconds|process_resident_memory_bytes)/.test(
          l,
        ),
      )
      .join('\n'),
  );
} finally {
  await stopAll();
  await cluster.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
