import http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/index';

/**
 * Prometheus metrics, made with prom-client and served on a port of their own
 * (METRICS_PORT, off by default; never the public port: main.ts refuses the same port). Labels are
 * bounded sets only: a route's pattern (`/api/stock/success/upload/:id`, never the id or a user),
 * a method, a status code, an error key, a job's name, a query's first word. Nothing here costs a
 * server without METRICS_PORT anything: the hooks are added only when metrics are on.
 */

const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];
const JOB_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120];

/** What the metrics read of a background job (server/jobs' Job). */
export interface ObservedJob {
  name: string;
  /** Its interval (a tick job: the tick's). */
  everyMs: number;
}

/**
 * Told what the job runner does (server/jobs: startJobs): each run's outcome and time
 * (`skipped`: another instance's run of it held its lock), and whether this instance runs the jobs
 * at all (on PostgreSQL only the leader does).
 */
export interface JobObserver {
  running(jobs: readonly ObservedJob[], leading: () => boolean): void;
  ran(job: ObservedJob, outcome: 'ok' | 'failed' | 'skipped', ms: number): void;
}

/**
 * Told what the push sender does (server/notify/sender.ts), per delivery of a notice to a device:
 * `sent` (the push service took it; with the time from the event), `retry` (refused for now or
 * unreachable: tried again later), `failed` (refused for good, or too old to send), `gone` (the
 * device unsubscribed: 404/410, the subscription dropped), `doubt` (its sender died mid-request:
 * never sent again).
 */
export type PushOutcome = 'sent' | 'retry' | 'failed' | 'gone' | 'doubt';
export interface PushObserver {
  delivered(outcome: PushOutcome, latencyMs?: number): void;
}

const PUSH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300];

/** A label for a request that matched no route: one value, whatever the path. */
const UNMATCHED = 'unmatched';

type Child<T> = T extends { labels(...args: never[]): infer C } ? C : never;

/**
 * One route and method's answer metrics. Answers are counted in plain numbers per status and
 * added to the counter when it is scraped (`flush`): prom-client validates and hashes the label
 * set on every `inc`, even of a bound child. The latency histogram's child is bound once.
 */
class BoundAnswers {
  private readonly latency: Child<Histogram<'route' | 'method'>>;
  /** Answers by status not yet added to the counter, with their label set. */
  private readonly byStatus = new Map<
    number,
    { labels: { route: string; method: string; status: number }; n: number }
  >();
  private readonly errorsByStatus = new Map<number, Child<Counter<'route' | 'status'>>>();

  constructor(
    latency: Histogram<'route' | 'method'>,
    private readonly serverErrors: Counter<'route' | 'status'>,
    private readonly route: string,
    private readonly method: string,
  ) {
    this.latency = latency.labels({ route, method });
  }

  answered(status: number, seconds: number): void {
    let counted = this.byStatus.get(status);
    if (counted === undefined) {
      counted = { labels: { route: this.route, method: this.method, status }, n: 0 };
      this.byStatus.set(status, counted);
    }
    counted.n += 1;
    this.latency.observe(seconds);
    if (status >= 500) {
      let failed = this.errorsByStatus.get(status);
      if (failed === undefined) {
        failed = this.serverErrors.labels({ route: this.route, status });
        this.errorsByStatus.set(status, failed);
      }
      failed.inc();
    }
  }

  /** Adds the answers counted since the last scrape to `requests`. */
  flush(requests: Counter<'route' | 'method' | 'status'>): void {
    for (const counted of this.byStatus.values())
      if (counted.n > 0) {
        requests.inc(counted.labels, counted.n);
        counted.n = 0;
      }
  }
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'bourse_http_requests_total',
    help: 'Answers sent, by route pattern, method and status code',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
    // Answers are counted per route in plain numbers (BoundAnswers) and added here when scraped.
    collect: () => {
      for (const bound of this.bound) bound.flush(this.requests);
    },
  });
  /** Every route and method's bound answer metrics, for the counter's scrape. */
  private readonly bound: BoundAnswers[] = [];
  private readonly latency = new Histogram({
    name: 'bourse_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route pattern and method',
    labelNames: ['route', 'method'] as const,
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  private readonly serverErrors = new Counter({
    name: 'bourse_http_server_errors_total',
    help: 'Answers with a 5xx status, by route pattern and status (500: a fault of ours; 503: the database unavailable)',
    labelNames: ['route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'bourse_refusals_total',
    help: 'Refusals (4xx and the database-unavailable 503), by error key and status',
    labelNames: ['key', 'status'] as const,
    registers: [this.registry],
  });
  private readonly queries = new Histogram({
    name: 'bourse_db_query_duration_seconds',
    help: "Database time per statement, by the statement's first word",
    labelNames: ['kind'] as const,
    buckets: DB_BUCKETS,
    registers: [this.registry],
  });
  private readonly queryErrors = new Counter({
    name: 'bourse_db_query_errors_total',
    help: "Statements that failed, by the statement's first word",
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private readonly jobRuns = new Counter({
    name: 'bourse_job_runs_total',
    help: 'Background job runs, by job and outcome (skipped: another instance held its lock)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly jobTime = new Histogram({
    name: 'bourse_job_duration_seconds',
    help: 'Time a background job run took',
    labelNames: ['job'] as const,
    buckets: JOB_BUCKETS,
    registers: [this.registry],
  });
  private readonly pushes = new Counter({
    name: 'bourse_push_deliveries_total',
    help: 'Push deliveries to devices, by outcome (sent, retry, failed, gone, doubt)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly pushLatency = new Histogram({
    name: 'bourse_push_latency_seconds',
    help: 'From the event (an alert firing, an order filling…) to its push accepted by the push service',
    buckets: PUSH_BUCKETS,
    registers: [this.registry],
  });
  private readonly lastRun = new Map<string, number>();
  private readonly lastSuccess = new Map<string, number>();
  private jobs: readonly ObservedJob[] = [];
  private leading: () => boolean = () => false;
  private readonly started = Date.now();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const self = this;
    new Gauge({
      name: 'bourse_jobs_leader',
      help: 'Whether this instance runs the background jobs (1; on PostgreSQL only the elected leader does)',
      registers: [this.registry],
      collect() {
        this.set(self.jobs.length > 0 && self.leading() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'bourse_job_last_run_timestamp_seconds',
      help: 'When each job last finished a run here, whatever its outcome (Unix seconds)',
      labelNames: ['job'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [job, at] of self.lastRun) this.set({ job }, at / 1000);
      },
    });
    new Gauge({
      name: 'bourse_job_last_success_timestamp_seconds',
      help: 'When each job last ran to completion here (Unix seconds)',
      labelNames: ['job'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [job, at] of self.lastSuccess) this.set({ job }, at / 1000);
      },
    });
    new Gauge({
      name: 'bourse_job_lag_seconds',
      help: 'How far each job is behind its interval: time since its last success (or since this instance began running jobs) less the interval; only while this instance runs the jobs',
      labelNames: ['job'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        if (!self.leading()) return;
        const now = Date.now();
        for (const job of self.jobs) {
          const since = now - (self.lastSuccess.get(job.name) ?? self.started);
          this.set({ job: job.name }, Math.max(0, since - job.everyMs) / 1000);
        }
      },
    });
  }

  /**
   * Counts and times every answer of `app`: call before its routes are registered. Each route gets
   * its own onResponse hook holding its label sets bound once (prom-client otherwise hashes a label
   * object on every count and every observation, and `req.routeOptions` builds an object per call);
   * requests no route matched (the not-found handler, the router's refusals) are counted by one
   * app-wide hook under one label.
   */
  install(app: FastifyInstance): void {
    app.addHook('onRoute', (options) => {
      const hook = this.routeHook(options.url ?? UNMATCHED);
      const prior = options.onResponse;
      options.onResponse = prior === undefined ? [hook] : [...(Array.isArray(prior) ? prior : [prior]), hook];
    });
    const unmatched = this.routeHook(UNMATCHED);
    app.addHook('onResponse', (req, reply, done) => {
      if (req.is404) unmatched(req, reply, done);
      else done();
    });
  }

  /** An onResponse hook counting and timing the answers of `route` (a pattern), its label sets bound on first use. */
  private routeHook(
    route: string,
  ): (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
    const byMethod = new Map<string, BoundAnswers>();
    return (req, reply, done) => {
      let bound = byMethod.get(req.method);
      if (bound === undefined) {
        bound = new BoundAnswers(this.latency, this.serverErrors, route, req.method);
        byMethod.set(req.method, bound);
        this.bound.push(bound);
      }
      bound.answered(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
  }

  /** A refusal the error handler sent (its i18n key), counted by key. */
  refusal(key: string, status: number): void {
    this.refusals.inc({ key, status });
  }

  /** Database time per statement, and the pool's (PostgreSQL) or the commit queue's (SQLite) use. */
  watchDatabase(database: Database): void {
    database.timing.onQuery = (kind, ms, failed) => {
      const label = { kind: QUERY_KINDS.has(kind) ? kind : 'other' };
      this.queries.observe(label, ms / 1000);
      if (failed) this.queryErrors.inc(label);
    };
    const { pool, group } = database;
    if (pool) {
      new Gauge({
        name: 'bourse_db_pool_connections',
        help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one (waiting)',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
      new Gauge({
        name: 'bourse_db_pool_max',
        help: 'PostgreSQL pool: the most connections it opens',
        registers: [this.registry],
        collect() {
          this.set(pool.options.max ?? 10);
        },
      });
    }
    if (group) {
      new Gauge({
        name: 'bourse_sqlite_commits_waiting',
        help: "SQLite: transactions waiting for the next group commit (the one writer's queue)",
        registers: [this.registry],
        collect() {
          this.set(group.waiting);
        },
      });
    }
  }

  /** A gauge read when scraped (sessions remembered, orders by status, the last audit…). */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (
      set: (labels: Partial<Record<L, string | number>>, value: number) => void,
    ) => void | Promise<void>,
  ): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await collect((labels, value) => this.set(labels, value));
      },
    });
  }

  /** The job runner's observer (server/jobs: startJobs). */
  readonly jobObserver: JobObserver = {
    running: (jobs, leading) => {
      this.jobs = jobs;
      this.leading = leading;
    },
    ran: (job, outcome, ms) => {
      const now = Date.now();
      this.jobRuns.inc({ job: job.name, outcome });
      if (outcome === 'skipped') return;
      this.jobTime.observe({ job: job.name }, ms / 1000);
      this.lastRun.set(job.name, now);
      if (outcome === 'ok') this.lastSuccess.set(job.name, now);
    },
  };

  /** The push sender's observer (server/notify/sender.ts `observePushes`). */
  readonly pushObserver: PushObserver = {
    delivered: (outcome, latencyMs) => {
      this.pushes.inc({ outcome });
      if (latencyMs !== undefined) this.pushLatency.observe(latencyMs / 1000);
    },
  };
}

const QUERY_KINDS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'with',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
]);

/**
 * Serves the registry's text at `/metrics` on its own port (nothing else there), for Prometheus to
 * scrape; resolves once listening, with the port and a function that closes it.
 */
export function serveMetrics(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = (server.address() as { port: number }).port;
      resolve({ port: bound, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
