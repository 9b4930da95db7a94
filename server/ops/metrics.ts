import type { Deps } from '../deps';
import { sealOf } from '../lib/audit-log';
import { sessionCache } from '../lib/auth';
import type { Metrics } from '../lib/metrics';
import { lastAudit } from './audit-runs';

/**
 * What the metrics read of the domain when scraped (lib/metrics.ts holds the rest): sessions this
 * instance remembers, orders by kind and status (from the database, at most once in ORDERS_EVERY_MS:
 * a count over the orders' status index), the last ledger audit's result, and the audit log's
 * newest signed head — one more place outside the database that remembers how long the log was.
 */
const ORDERS_EVERY_MS = 30_000;

export function watchDomain(metrics: Metrics, deps: Deps): void {
  metrics.gauge(
    'bourse_sessions_remembered',
    'Valid sessions this instance remembers (SESSION_CACHE_MS)',
    [],
    (set) => set({}, sessionCache(deps).size),
  );

  let orders: Array<{ mold: string; status: number; n: number }> = [];
  let ordersAt = Number.NEGATIVE_INFINITY;
  metrics.gauge(
    'bourse_orders',
    'Orders by kind (mold) and status code (stock orders: 0 pending, 1 filled, 2 cancelled, 3 expired, 4 failed)',
    ['mold', 'status'],
    async (set) => {
      if (performance.now() - ordersAt >= ORDERS_EVERY_MS) {
        const rows = await deps.database.db
          .selectFrom('orders')
          .select((eb) => ['kind', 'status', eb.fn.countAll<number | string>().as('n')])
          .groupBy(['status', 'kind'])
          .execute();
        // The label keeps its published name (`mold`, SPEC's): dashboards and alerts select on it.
        orders = rows.map((r) => ({ mold: String(r.kind), status: Number(r.status), n: Number(r.n) }));
        ordersAt = performance.now();
      }
      for (const o of orders) set({ mold: o.mold, status: o.status }, o.n);
    },
  );

  const audit = async () => lastAudit(deps.database.db);
  metrics.gauge(
    'bourse_ledger_audit_problems',
    'Problems the last ledger audit found (0: every balance is its postings); absent before the first audit',
    [],
    async (set) => {
      const last = await audit();
      if (last) set({}, last.problems);
    },
  );
  metrics.gauge(
    'bourse_ledger_audit_last_run_timestamp_seconds',
    'When the last ledger audit began (Unix seconds), by the job or the console',
    [],
    async (set) => {
      const last = await audit();
      if (last) set({}, Number(last.started_at) / 1000);
    },
  );
  metrics.gauge(
    'bourse_ledger_audit_duration_seconds',
    'How long the last ledger audit took',
    [],
    async (set) => {
      const last = await audit();
      if (last) set({}, Number(last.took_ms) / 1000);
    },
  );

  const seal = sealOf(deps.database);
  metrics.gauge(
    'bourse_audit_log_signed_head',
    'The newest audit-log entry this instance signed a head for (a later scrape lower than an earlier one: entries were cut)',
    [],
    (set) => {
      const head = seal.lastHead();
      if (head) set({}, head.seq);
    },
  );
  metrics.gauge(
    'bourse_audit_heads_write_failing',
    '1 while the audit log heads file cannot be written (AUDIT_HEADS_FILE), else 0',
    [],
    (set) => set({}, seal.writeError() === null ? 0 : 1),
  );
}
