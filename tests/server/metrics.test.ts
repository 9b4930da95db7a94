import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../server/config';
import { startJobs } from '../../server/jobs/index';
import type { Job } from '../../server/jobs/job';
import { Metrics, serveMetrics } from '../../server/lib/metrics';
import { uploadReadPath } from '../../server/lib/uploads';
import { watchDomain } from '../../server/ops/metrics';
import { DIALECTS, ops, startTestServer, type TestServer } from '../support/server';
import { credit, idem } from '../support/trading';
import { upload } from '../support/wallet';

/**
 * Prometheus metrics: what an operator reads — answers and their latency per route
 * pattern (never per user or id), refusals by key, 5xx, database time and pool use, each job's last
 * run and lag, sessions remembered, orders by status, the last ledger audit, Node's own — on a
 * port of their own, never the public one.
 */

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{(.*)\})? (.+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return undefined;
}

describe.each(DIALECTS)('metrics on $name', ({ name, enabled }) => {
  let s: TestServer;
  let metrics: Metrics;
  beforeAll(async () => {
    if (!enabled) return;
    metrics = new Metrics();
    s = await startTestServer(name, {}, { metrics });
    watchDomain(metrics, s.deps);
  });
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(enabled)(
    'counts answers per route pattern, refusals by key and database time, and names no user',
    async () => {
      const u = await s.signUp();
      await credit(s, u.id, 10_000_000);
      const sent = await upload(s, u.token);
      const id = (sent.body.data as { id: string }).id;
      for (let i = 0; i < 3; i++) await s.call('userInfo', { token: u.token });
      expect((await s.api('GET', uploadReadPath(id), { token: u.token })).status).toBe(200);
      await s.call('balance');
      await s.call('login', { body: { user: u.phone, password: 'wrong-pass1' } });
      await s.api('GET', '/no/such/route');
      const buy = await s.call('dealBuy', {
        token: u.token,
        headers: idem(),
        body: {
          tag: 'RELIANCE.NS',
          count: 1,
          price: s.deps.market.quote('RELIANCE.NS')!.price,
          mold: 'stock',
        },
      });
      expect(buy.body.msg).toBe('ok');
      await ops(s, 'ledger:audit');

      const text = await metrics.registry.metrics();
      const api = s.config.apiBase;
      expect(
        sample(text, 'bourse_http_requests_total', {
          route: `${api}/stock/success/v2/user/info`,
          status: '200',
        }),
      ).toBe(3);
      // The upload's pattern, not its id; the unknown path as one value.
      expect(
        sample(text, 'bourse_http_requests_total', {
          route: `${api}/stock/success/upload/:id`,
          status: '200',
        }),
      ).toBe(1);
      expect(
        sample(text, 'bourse_http_requests_total', { route: 'unmatched', status: '404' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        sample(text, 'bourse_http_request_duration_seconds_count', {
          route: `${api}/stock/success/v2/user/info`,
        }),
      ).toBe(3);
      expect(sample(text, 'bourse_refusals_total', { key: 'errors.sessionExpired', status: '401' })).toBe(1);
      expect(sample(text, 'bourse_refusals_total', { key: 'errors.invalidCredentials', status: '400' })).toBe(
        1,
      );
      expect(sample(text, 'bourse_db_query_duration_seconds_count', { kind: 'select' })).toBeGreaterThan(0);
      expect(sample(text, 'bourse_db_query_duration_seconds_count', { kind: 'insert' })).toBeGreaterThan(0);
      expect(sample(text, 'bourse_sessions_remembered')).toBeGreaterThanOrEqual(1);
      expect(
        sample(text, 'bourse_orders', { mold: 'stock', status: String(buy.body.data.status) }),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'bourse_ledger_audit_problems')).toBe(0);
      expect(sample(text, 'bourse_ledger_audit_last_run_timestamp_seconds')).toBeGreaterThan(0);
      expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
      if (name === 'postgres') {
        expect(sample(text, 'bourse_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
        expect(sample(text, 'bourse_db_pool_max')).toBe(10);
      } else expect(sample(text, 'bourse_sqlite_commits_waiting')).toBe(0);
      // No user, phone, token or id in any label: no such label, and none of this user's values.
      const names = new Set([...text.matchAll(/[{,](\w+)="/g)].map((m) => m[1]));
      for (const label of ['user', 'user_id', 'id', 'phone', 'token', 'path', 'url'])
        expect(names).not.toContain(label);
      for (const secret of [u.token, u.phone, id]) expect(text).not.toContain(secret);
    },
  );

  it.runIf(enabled)("reports each job's runs, last run and lag while this instance runs them", async () => {
    let fail = false;
    const job: Job = {
      name: 'test:tick',
      everyMs: 50,
      async run() {
        if (fail) throw new Error('failing on purpose');
      },
    };
    const stop = startJobs(s.deps, [job], () => {}, metrics.jobObserver);
    try {
      await vi.waitFor(
        async () => {
          expect(
            sample(await metrics.registry.metrics(), 'bourse_job_runs_total', {
              job: 'test:tick',
              outcome: 'ok',
            }),
          ).toBeGreaterThanOrEqual(2);
        },
        { timeout: 10_000, interval: 50 },
      );
      fail = true;
      await vi.waitFor(
        async () => {
          expect(
            sample(await metrics.registry.metrics(), 'bourse_job_runs_total', {
              job: 'test:tick',
              outcome: 'failed',
            }),
          ).toBeGreaterThanOrEqual(1);
        },
        { timeout: 10_000, interval: 50 },
      );
      // Failing, it falls behind: its lag grows past its interval.
      await vi.waitFor(
        async () => {
          expect(
            sample(await metrics.registry.metrics(), 'bourse_job_lag_seconds', { job: 'test:tick' }),
          ).toBeGreaterThan(0.2);
        },
        { timeout: 10_000, interval: 50 },
      );
      const text = await metrics.registry.metrics();
      expect(sample(text, 'bourse_jobs_leader')).toBe(1);
      expect(sample(text, 'bourse_job_last_success_timestamp_seconds', { job: 'test:tick' })).toBeLessThan(
        sample(text, 'bourse_job_last_run_timestamp_seconds', { job: 'test:tick' })!,
      );
    } finally {
      stop();
    }
  });

  it.runIf(enabled)('serves the text on a port of its own; the public port has no /metrics', async () => {
    const served = await serveMetrics(metrics, 0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${served.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(await res.text()).toContain('# TYPE bourse_http_requests_total counter');
      expect((await fetch(`http://127.0.0.1:${served.port}/`)).status).toBe(404);
    } finally {
      await served.close();
    }
    const publicAnswer = await s.app.inject({ method: 'GET', url: '/metrics' });
    expect(publicAnswer.body).not.toContain('bourse_http_requests_total');
    expect(() => loadConfig({ PORT: '8080', METRICS_PORT: '8080' })).toThrow(/public port/);
    expect(loadConfig({}).metrics.port).toBe(0);
  });
});
