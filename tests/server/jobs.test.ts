import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JOBS, JOBS_AT_ONCE, startJobs } from '../../server/jobs/index';
import type { Job } from '../../server/jobs/job';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';

/**
 * The job runner on a server that leads: every job comes due at once when an instance takes the
 * lead (the cluster test's kill -9), and on PostgreSQL each run holds its lock's connection while it
 * asks for another. Runs are capped, so the jobs finish and the requests beside them get a connection.
 */
describe.each(DIALECTS)('jobs on $name', ({ name, enabled }) => {
  let s: TestServer;
  beforeAll(async () => {
    if (enabled) s = await startTestServer(name);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it.runIf(enabled)(
    'as many jobs as the server has, due together: at most JOBS_AT_ONCE run, all finish, requests still get a connection',
    async () => {
      let now = 0;
      let most = 0;
      const runs = new Map<string, number>();
      const failures: string[] = [];
      const jobs: Job[] = Array.from({ length: JOBS.length }, (_, i) => {
        const jobName = `test:due-together-${i}`;
        return {
          name: jobName,
          // Due together: at once on taking the lead (PostgreSQL), at the first interval (SQLite).
          everyMs: 100,
          async run(deps) {
            now += 1;
            most = Math.max(most, now);
            try {
              // A statement of its own beside the lock's transaction, and long enough to overlap.
              await sql`select 1`.execute(deps.database.db);
              await new Promise((resolve) => setTimeout(resolve, 40));
              runs.set(jobName, (runs.get(jobName) ?? 0) + 1);
            } finally {
              now -= 1;
            }
          },
        };
      });
      const stop = startJobs(s.deps, jobs, (msg, err) => failures.push(`${msg}: ${String(err)}`));
      try {
        const requests = Array.from({ length: 8 }, () =>
          s.deps.database.db.selectFrom('users').select('id').limit(1).execute(),
        );
        await Promise.all(requests);
        await vi.waitFor(() => expect([runs.size, failures]).toEqual([jobs.length, []]), {
          timeout: 15_000,
          interval: 20,
        });
      } finally {
        stop();
      }
      expect(failures).toEqual([]);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(JOBS_AT_ONCE);
      for (const job of jobs) expect(runs.get(job.name), job.name).toBeGreaterThanOrEqual(1);
    },
    30_000,
  );
});
