import { sql } from 'kysely';
import { CONTENT_JOBS } from '../content/setup';
import { withTx } from '../db/index';
import { electLeader } from '../db/pg-locks';
import type { Deps } from '../deps';
import { fundJobs } from '../funds/jobs';
import { CLOCK_OFFSET_TAG } from '../lib/clock';
import type { JobObserver } from '../lib/metrics';
import { pushJobs } from '../notify/jobs';
import { portfolioJobs } from '../portfolio/snapshots';
import { tradingJobs } from '../trading/jobs';
import { PAYMENT_JOBS } from '../wallet/jobs';
import { watchlistJobs } from '../watchlists/jobs';
import type { Job } from './job';

/** Every job of the server. Domain modules append theirs. */
export const JOBS: Job[] = [
  ...PAYMENT_JOBS,
  ...tradingJobs,
  ...fundJobs,
  ...watchlistJobs,
  ...portfolioJobs,
  ...CONTENT_JOBS,
  ...pushJobs,
];

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

/**
 * How many jobs run at once. On PostgreSQL a run holds two pool connections (its advisory lock's
 * transaction and its own statements): twelve jobs started together on taking over the lead held
 * the whole pool of ten, each waiting for a second connection, and the instance's requests timed
 * out waiting for one (503, seen in the cluster test right after a kill -9). Two runs hold at most
 * four connections, whatever the number of jobs, and the rest queue in order.
 */
export const JOBS_AT_ONCE = 2;

/**
 * Starts every job on its interval; returns a stop function. On PostgreSQL they run only while
 * this instance leads (each job once at once on taking over, so nothing waits for its interval).
 */
export function startJobs(
  deps: Deps,
  jobs: Job[] = JOBS,
  log: (msg: string, err: unknown) => void = () => {},
  observer?: JobObserver,
): () => void {
  const running = new Set<string>();
  const again = new Set<string>();
  let stopped = false;
  const leader =
    deps.database.dialect === 'postgres'
      ? electLeader(deps.config.databaseUrl, {
          retryMs: deps.config.jobsLeaderRetryMs,
          onLead: () => {
            for (const job of jobs) start(job);
          },
          log,
        })
      : null;
  observer?.running(jobs, () => !stopped && (leader === null || leader.leading));
  /** Jobs due while JOBS_AT_ONCE others run, in the order they became due (each once). */
  const queued = new Map<string, Job>();
  const start = (job: Job): void => {
    if (stopped || (leader !== null && !leader.leading)) return;
    if (running.has(job.name)) {
      if (job.onTick) again.add(job.name);
      return;
    }
    if (running.size >= JOBS_AT_ONCE) {
      queued.set(job.name, job);
      return;
    }
    queued.delete(job.name);
    running.add(job.name);
    const started = performance.now();
    runJob(deps, job)
      .then(
        (ran) => observer?.ran(job, ran ? 'ok' : 'skipped', performance.now() - started),
        (err) => {
          observer?.ran(job, 'failed', performance.now() - started);
          log(`job ${job.name} failed`, err);
        },
      )
      .finally(() => {
        running.delete(job.name);
        if (again.delete(job.name)) start(job);
        const next = queued.values().next();
        if (!next.done) start(next.value);
      });
  };
  const stops = jobs.map((job) => {
    if (!job.onTick) {
      const timer = setInterval(() => start(job), job.everyMs);
      return () => clearInterval(timer);
    }
    // A tick comes from inside the market's sync (a request may cause it): run after it, not in it.
    return deps.market.onTick(() => {
      setImmediate(() => start(job));
    });
  });
  return () => {
    stopped = true;
    leader?.stop();
    for (const stop of stops) stop();
  };
}

/**
 * Demo/e2e only (config.opsClock): follows the clock offset written by `npm run ops --
 * clock:advance`, so another process can move this server's time forward.
 */
/** CLOCK_START with OPS_CLOCK (server/main.ts): the operator's offset begins at the clock's own, if none is set. */
export async function startOpsClock(deps: Deps): Promise<void> {
  await deps.database.db
    .insertInto('config')
    .values({ tag: CLOCK_OFFSET_TAG, value: String(deps.clock.offset()) })
    .onConflict((oc) => oc.column('tag').doNothing())
    .execute();
}

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
