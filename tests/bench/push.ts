import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { priceToTicks } from '#shared/money';
import { loadConfig } from '../../server/config';
import { createDatabase, migrate, withTx } from '../../server/db/index';
import { seed } from '../../server/db/seed';
import { createDeps, type Deps } from '../../server/deps';
import { startJobs } from '../../server/jobs/index';
import { systemClock } from '../../server/lib/clock';
import { pushJobs } from '../../server/notify/jobs';
import { notify } from '../../server/notify/notify';
import { DELIVERY, type PushPayload } from '../../server/notify/sender';
import { evaluateAlerts } from '../../server/watchlists/alerts';
import { decryptPush, newDevice, type PushService, startPushService, type TestDevice } from '../support/push';
import { freshPgDatabase, PG_URL } from '../support/server';
import { controlMarket } from '../support/trading';

/**
 * `npm run bench:push`: from an event to its push request arriving at the push service,
 * with 10,000 subscribed devices (10,000 users, one each), on SQLite and PostgreSQL; the sender's
 * throughput on a backlog of 10,000; and a crash test. The push service is the tests' own
 * (tests/support/push.ts) on 127.0.0.1, in this process; every payload is decrypted with its
 * device's key and counted by (notice, device).
 * 1. Alerts as a stream: 1,000 alerts on RELIANCE at rising levels, 50 crossing each second for 20 s
 *    (the real `evaluateAlerts` fires them; the real `push:send` job sends, every 200 ms).
 * 2. Alerts as a burst: 1,000 crossing in one tick.
 * 3. Throughput: a notice to each of the 10,000 users at once; deliveries per second to drain them.
 * 4. Crash (kill -9): the sender runs in a child process on a backlog of 10,000; it is killed with
 *    SIGKILL once 3,000 pushes arrived, started again, and the backlog drained: pushes received twice
 *    for one (notice, device) are duplicates. Claims the killed sender held are in doubt, never resent.
 * Figures only; nothing asserted. The event's time is the notice's (server clock = real time here).
 */

const USERS = 10_000;
const ALERTS = 1_000;
const WAVES = 20;
const SYMBOL = 'RELIANCE.NS';

interface Setup {
  deps: Deps;
  url: string;
  devices: Map<string, TestDevice>;
  userIds: number[];
  close(): Promise<void>;
}

async function setup(dialect: 'sqlite' | 'postgres', service: PushService): Promise<Setup> {
  let url: string;
  let drop: () => Promise<void>;
  if (dialect === 'postgres') {
    const db = await freshPgDatabase();
    url = db.url;
    drop = db.drop;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-push-'));
    url = `sqlite:${path.join(dir, 'bench.db')}`;
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  const config = loadConfig({ DATABASE_URL: url, PUSH_LOOPBACK: '1', LOG_LEVEL: 'silent', DEMO_USER: '0' });
  const database = createDatabase(config.databaseUrl, { groupCommit: config.sqliteGroupCommit });
  await migrate(database);
  const deps = createDeps(config, database, systemClock(0));
  await seed(deps);
  const now = Date.now();
  const devices = new Map<string, TestDevice>();
  const userIds: number[] = [];
  for (let i = 0; i < USERS; i += 500) {
    const rows = Array.from({ length: Math.min(500, USERS - i) }, (_, k) => ({
      phone: `8${String(i + k).padStart(9, '0')}`,
      password_hash: 'bench',
      no: `P${String(i + k).padStart(8, '0')}`,
      img: null,
      balance: 0,
      fund_password_hash: null,
      fund_password_fails: 0,
      fund_password_locked_until: null,
      credit_score: 100,
      created_at: now,
    }));
    const ids = await database.db.insertInto('users').values(rows).returning('id').execute();
    const subs = ids.map(({ id }) => {
      const device = newDevice(`${service.url}/d/${dialect}/${id}`);
      devices.set(device.endpoint, device);
      userIds.push(id);
      return {
        user_id: id,
        endpoint: device.endpoint,
        p256dh: device.keys.p256dh,
        auth: device.keys.auth,
        device: 'Bench',
        lang: 'en',
        created_at: now,
        last_success_at: null,
      };
    });
    await database.db.insertInto('push_subscriptions').values(subs).execute();
  }
  return {
    deps,
    url,
    devices,
    userIds,
    async close() {
      deps.market.stop();
      await database.close();
      await drop();
    },
  };
}

/** Decrypted payloads received since `from`, with their arrival time and endpoint. */
function payloads(service: PushService, devices: Map<string, TestDevice>, base: string, from: number) {
  return service.received.slice(from).map((r) => {
    const device = devices.get(`${base}${r.path}`)!;
    return { at: r.at, endpoint: r.path, payload: JSON.parse(decryptPush(device, r.body)) as PushPayload };
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
function latencies(got: Array<{ at: number; payload: PushPayload }>) {
  const ms = got.map((g) => g.at - g.payload.at).sort((a, b) => a - b);
  return `p50 ${pct(ms, 50)} ms · p95 ${pct(ms, 95)} ms · max ${ms[ms.length - 1]} ms (${ms.length} pushes)`;
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function alerts(s: Setup, service: PushService, burst: boolean): Promise<string> {
  const { deps } = s;
  const control = controlMarket({ deps, clock: deps.clock } as never);
  control.pin(SYMBOL, 2500);
  const now = Date.now();
  const users = s.userIds.slice(0, ALERTS);
  await deps.database.db
    .insertInto('alerts')
    .values(
      users.map((user_id, i) => ({
        user_id,
        symbol: SYMBOL,
        kind: 'above' as const,
        value: priceToTicks(2500 + 0.05 * (i + 1)),
        ref_price: priceToTicks(2500),
        status: 0,
        created_at: now,
        updated_at: now,
        fired_at: null,
        fired_price: null,
      })),
    )
    .execute();
  const from = service.received.length;
  const stop = startJobs(deps, pushJobs);
  try {
    if (burst) {
      control.pin(SYMBOL, 2500 + 0.05 * ALERTS);
      await evaluateAlerts(deps);
    } else {
      const per = ALERTS / WAVES;
      for (let wave = 1; wave <= WAVES; wave++) {
        const started = Date.now();
        control.pin(SYMBOL, 2500 + 0.05 * per * wave);
        await evaluateAlerts(deps);
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))));
      }
    }
    await until(() => service.received.length - from >= ALERTS, 120_000, 'every alert pushed');
  } finally {
    stop();
  }
  const got = payloads(service, s.devices, service.url, from);
  return latencies(got);
}

async function backlog(s: Setup): Promise<void> {
  const at = Date.now();
  await withTx(s.deps.database, async (trx) => {
    for (const userId of s.userIds)
      await notify(trx, { userId, kind: 'chat', symbol: '', params: { event: 'reply' }, at, inbox: false });
  });
}

async function throughput(s: Setup, service: PushService): Promise<string> {
  await backlog(s);
  const from = service.received.length;
  const started = performance.now();
  const stop = startJobs(s.deps, pushJobs);
  try {
    await until(() => service.received.length - from >= USERS, 300_000, 'the backlog sent');
  } finally {
    stop();
  }
  const seconds = (performance.now() - started) / 1000;
  return `${USERS} pushes in ${seconds.toFixed(1)} s: ${Math.round(USERS / seconds)} pushes/s`;
}

function sender(url: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'push-sender.ts')], {
    env: { ...process.env, DATABASE_URL: url, PUSH_LOOPBACK: '1', LOG_LEVEL: 'silent', DEMO_USER: '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function crash(s: Setup, service: PushService): Promise<string> {
  await backlog(s);
  const from = service.received.length;
  const first = sender(s.url);
  await until(() => service.received.length - from >= 3000, 120_000, '3,000 pushes before the kill');
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  const atKill = service.received.length - from;
  const second = sender(s.url);
  const left = async () =>
    Number(
      (
        await s.deps.database.db
          .selectFrom('push_deliveries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('state', '=', DELIVERY.due)
          .executeTakeFirstOrThrow()
      ).n,
    );
  try {
    await until(async () => (await left()) === 0, 300_000, 'the backlog drained after the restart');
    // The last chunk's requests and records.
    await new Promise((r) => setTimeout(r, 1000));
  } finally {
    second.kill('SIGTERM');
    await new Promise((r) => second.once('exit', r));
  }
  const got = payloads(service, s.devices, service.url, from);
  const seen = new Map<string, number>();
  for (const g of got) {
    const key = `${g.payload.id}|${g.endpoint}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const duplicates = [...seen.values()].filter((n) => n > 1).length;
  const rows = await s.deps.database.db
    .selectFrom('push_deliveries')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .where(sql<boolean>`outbox_id in (select id from push_outbox where kind = 'chat')`)
    .groupBy('state')
    .execute();
  const by = Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  const doubt = (by[DELIVERY.sending] ?? 0) + (by[DELIVERY.doubt] ?? 0);
  return `killed at ${atKill} received; after the restart ${got.length} received for ${seen.size} (notice, device) pairs: ${duplicates} duplicates; ${doubt} claims of the killed sender in doubt (not resent; they had arrived: ${USERS - seen.size} never received)`;
}

async function main() {
  const dialects: Array<'sqlite' | 'postgres'> = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  if (!PG_URL) console.log('TEST_PG_URL unset: PostgreSQL skipped');
  for (const dialect of dialects) {
    const service = await startPushService();
    const s = await setup(dialect, service);
    console.log(`\n${dialect}: ${USERS} users, ${USERS} subscriptions`);
    console.log(`  alerts, 50 a second for 20 s: ${await alerts(s, service, false)}`);
    await s.deps.database.db.deleteFrom('alerts').execute();
    console.log(`  alerts, 1,000 in one tick:     ${await alerts(s, service, true)}`);
    console.log(`  sender throughput:             ${await throughput(s, service)}`);
    console.log(`  crash test (kill -9):          ${await crash(s, service)}`);
    await s.close();
    await service.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
