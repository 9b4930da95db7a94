import { sql } from 'kysely';
import { withTx } from '../db/index';
import type { Deps } from '../deps';
import { CLOCK_OFFSET_TAG } from '../lib/clock';
import { PAYMENT_JOBS } from '../payments/jobs';
import { tradingJobs } from '../trading/jobs';

/**
 * Background jobs (settlements, maturities, order expiry). Each job is idempotent and runs at its
 * interval; with several API instances on PostgreSQL a transaction-scoped advisory lock lets only
 * one instance run a job at a time. Tests call `runJob` directly after moving the clock.
 */
export interface Job {
  name: string;
  everyMs: number;
  run(deps: Deps): Promise<void>;
}

/** Every job of the server. Domain modules append theirs. */
export const JOBS: Job[] = [...PAYMENT_JOBS, ...tradingJobs];

function lockKey(name: string): number {
  let h = 0;
  for (const c of name) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

export async function runJob(deps: Deps, job: Job): Promise<boolean> {
  if (deps.database.dialect !== 'postgres') {
    await job.run(deps);
    return true;
  }
  return withTx(deps.database, async (trx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${lockKey(job.name)}) as locked`.execute(trx);
    if (!rows[0]?.locked) return false;
    await job.run(deps);
    return true;
  });
}

/** Starts every job on its interval; returns a stop function. */
export function startJobs(
  deps: Deps,
  jobs: Job[] = JOBS,
  log: (msg: string, err: unknown) => void = () => {},
): () => void {
  const running = new Set<string>();
  const timers = jobs.map((job) =>
    setInterval(() => {
      if (running.has(job.name)) return;
      running.add(job.name);
      runJob(deps, job)
        .catch((err) => log(`job ${job.name} failed`, err))
        .finally(() => running.delete(job.name));
    }, job.everyMs),
  );
  return () => {
    for (const t of timers) clearInterval(t);
  };
}

/**
 * Demo/e2e only (config.opsClock): follows the clock offset written by `npm run ops --
 * clock:advance`, so another process can move this server's time forward.
 */
export const followOpsClock: Job = {
  name: 'ops:clock',
  everyMs: 500,
  async run(deps) {
    const row = await deps.database.db
      .selectFrom('config')
      .select('value')
      .where('tag', '=', CLOCK_OFFSET_TAG)
      .executeTakeFirst();
    const wanted = Number(row?.value ?? 0);
    if (Number.isFinite(wanted) && wanted !== deps.clock.offset())
      deps.clock.advance(wanted - deps.clock.offset());
  },
};
