import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { contract, type EndpointName } from '#shared/contract/index';
import { buildApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import { createDatabase, type Database, migrate } from '../../server/db/index';
import { seed } from '../../server/db/seed';
import { createDeps, type Deps } from '../../server/deps';
import { totpCode } from '../../server/factors/index';
import { type Clock, systemClock } from '../../server/lib/clock';
import type { Metrics } from '../../server/lib/metrics';
import { COMMANDS } from '../../server/ops/commands/index';
import type { SchemaTemplates } from './schema-template';

/**
 * Server integration tests run every suite against real SQLite and, when a server is reachable,
 * real PostgreSQL (TEST_PG_URL, set by tests/run.mjs; empty means "not reachable": the suite is
 * reported as skipped, never as passed). Each app gets a fresh database.
 */
/** Answers are inspected loosely in tests. */
// biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field
export type Answer = { msg: string; data: any };

export const PG_URL = process.env.TEST_PG_URL ?? '';

/**
 * Where the SQLite test databases live: memory (tmpfs, /dev/shm) where the machine has it. Each
 * commit's fsync (synchronous=FULL) on a disk made the suites wait on the disk, and on a shared
 * machine on everyone else's writes too; what they test is the server's logic, not the disk's.
 */
export const TEST_TMP = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();

export const DIALECTS = [
  { name: 'sqlite' as const, enabled: true },
  { name: 'postgres' as const, enabled: PG_URL !== '' },
];

/** An answer through `inject`: the parsed envelope, and `text`, the bytes as sent (for byte-for-byte checks). */
export interface Reply {
  status: number;
  body: Answer;
  text: string;
  headers: Record<string, unknown>;
}

/** What a test request carries besides method and path. */
export interface CallOptions {
  body?: unknown;
  query?: Record<string, string | number>;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestServer {
  app: FastifyInstance;
  deps: Deps;
  clock: Clock;
  config: Config;
  close(): Promise<void>;
  /** inject() with JSON and an optional token; returns status and parsed body. */
  api(method: 'GET' | 'POST', url: string, options?: CallOptions): Promise<Reply>;
  /**
   * One contract call by name (`s.call('withdraw', { token, body })`): method and path come from
   * the contract, so a test never spells a URL. `api` stays for what the contract cannot express
   * (hostile paths, raw bodies).
   */
  call(name: EndpointName, options?: CallOptions): Promise<Reply>;
  /**
   * Registers and logs in a fresh user; returns the token and id (of a full session: where
   * REQUIRE_2FA holds, an authenticator app is set up on the way).
   */
  signUp(phone?: string, password?: string): Promise<{ token: string; id: number; phone: string }>;
}

let phoneSeq = 0;
export function freshPhone(): string {
  phoneSeq += 1;
  return `7${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 100000).padStart(5, '0')}${phoneSeq % 10}`.slice(
    0,
    10,
  );
}

/**
 * A new, empty PostgreSQL database; `template`: a copy of that one instead (the run's migrated
 * schema, tests/support/schema-template.ts).
 */
export async function freshPgDatabase(
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `bourse_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  // A commit answers before its WAL is flushed (a crash could lose the last ones, never corrupt
  // anything): what these databases test is the server's logic, not the disk's, as the SQLite ones
  // on tmpfs. The crash drill has a cluster of its own (support/pg-cluster.ts) at the defaults.
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Where a test server's clock starts: a Wednesday, 10:30 in Mumbai (NSE open, forex open). The
 * clock then runs in real time from there. A suite on the system clock passed or failed by the
 * weekday it ran on: on a Friday night, "two days later" is a Sunday, when no session has closed
 * and no forex quote can be newer.
 */
export const TEST_EPOCH = Date.UTC(2026, 10, 25, 5, 0, 0);

/**
 * A clock that moves only when a test advances it: where a test compares a price the server took
 * with the quote it reads afterwards, a real-time clock can cross a second between the two on a
 * loaded machine (the simulator's prices move each second).
 */
export function stillClock(at = TEST_EPOCH): Clock {
  let now = at;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    offset: () => now - Date.now(),
  };
}

export interface TestServerOptions {
  /** The server's clock (default: real time from TEST_EPOCH). */
  clock?: Clock;
  /** Fastify's logger (default: none). */
  logger?: boolean | object;
  /** Runs before the app is ready: a test may add a route of its own. */
  setup?: (app: FastifyInstance) => void;
  /** Prometheus metrics of the app (server/lib/metrics.ts), read by the test. */
  metrics?: Metrics;
}

/** The run's migrated schema (tests/support/schema-template.ts); none outside Vitest (bench:market). */
function schemaTemplates(): SchemaTemplates | undefined {
  try {
    return inject('schemaTemplates');
  } catch {
    return undefined;
  }
}

export async function startTestServer(
  dialect: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  let databaseUrl: string;
  let cleanup: () => Promise<void>;
  // A copy of the run's migrated schema (its `migrate` below then has nothing to do).
  const templates = schemaTemplates();
  // This server's own files: the SQLite database, the audit log's signed heads, the staff outbox.
  const dir = fs.mkdtempSync(path.join(TEST_TMP, 'bourse-test-'));
  const extra: Record<string, string> = {
    AUDIT_HEADS_FILE: path.join(dir, 'audit-heads'),
    STAFF_OUTBOX_DIR: path.join(dir, 'outbox'),
  };
  const removeDir = async () => fs.rmSync(dir, { recursive: true, force: true });
  if (dialect === 'postgres') {
    const created = await freshPgDatabase(templates?.postgres ?? undefined);
    databaseUrl = created.url;
    cleanup = async () => {
      await created.drop();
      await removeDir();
    };
  } else {
    const file = path.join(dir, 'test.db');
    if (templates) fs.copyFileSync(templates.sqlite, file);
    databaseUrl = `sqlite:${file}`;
    cleanup = removeDir;
  }
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DIST_DIR: path.join(os.tmpdir(), 'bourse-no-dist'),
    UPLOADS_DIR: path.join(os.tmpdir(), `bourse-uploads-${process.pid}`),
    SCRYPT_N: '1024',
    LOG_LEVEL: 'silent',
    MARKET_TICK_MS: '1000',
    // Suites register many users from inject's one address; the limit has its own suite.
    REGISTER_LIMIT_ADDRESS: '100000',
    ...extra,
    ...env,
  });
  const database: Database = createDatabase(config.databaseUrl, {
    groupCommit: config.sqliteGroupCommit,
    connectTimeoutMs: config.pgConnectTimeoutMs,
  });
  await migrate(database);
  const deps = createDeps(config, database, options.clock ?? systemClock(TEST_EPOCH - Date.now()));
  const { clock, market } = deps;
  await seed(deps);
  if (options.metrics) options.metrics.watchDatabase(database);
  const app = await buildApp(deps, { logger: options.logger ?? false, metrics: options.metrics ?? null });
  options.setup?.(app);
  await app.ready();

  const api: TestServer['api'] = async (method, url, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.token = options.token;
    const req: InjectOptions = {
      method,
      url: `${config.apiBase}${url}`,
      headers,
      query: options.query as Record<string, string>,
    };
    if (method === 'POST') req.payload = (options.body ?? {}) as InjectOptions['payload'];
    const res = await app.inject(req);
    let body: Answer;
    try {
      body = res.json();
    } catch {
      body = { msg: '<not json>', data: res.body };
    }
    return { status: res.statusCode, body, text: res.body, headers: res.headers };
  };

  const call: TestServer['call'] = (name, options) =>
    api(contract[name].method, contract[name].path, options);

  return {
    app,
    deps,
    clock,
    config,
    api,
    call,
    async signUp(phone = freshPhone(), password = 'secret123') {
      const reg = await call('register', {
        body: { user: phone, password, code: config.inviteCode },
      });
      if (reg.body.msg !== 'ok') throw new Error(`sign-up failed: ${JSON.stringify(reg.body)}`);
      const login = await call('login', { body: { user: phone, password } });
      if (login.body.msg !== 'ok') throw new Error(`login failed: ${JSON.stringify(login.body)}`);
      let token = login.body.data.token as string;
      // REQUIRE_2FA (production): the password opened only the enrolment of a first factor; an
      // authenticator app set up here gives the full session a suite means by "signed up".
      if (login.body.data.second?.stage === 'enrol') {
        const setup = await call('totpSetup', { token, body: {} });
        const code = totpCode(setup.body.data.secret, clock.now());
        token = (await call('totpConfirm', { token, body: { code } })).body.data.session.token;
      }
      return { token, id: login.body.data.id as number, phone };
    },
    async close() {
      market.stop();
      await app.close();
      await database.close();
      await cleanup();
    },
  };
}

/** Runs an operator command (`npm run ops -- <name> <args>`) against a test server's own deps. */
export function ops(s: TestServer, name: string, ...args: string[]): Promise<unknown> {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`no command ${name}`);
  return command.run(s.deps, args);
}
