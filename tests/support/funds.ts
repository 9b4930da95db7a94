import { DAY_MS, dayStart } from '#shared/market-hours';
import { cutoffOf, indianDay, isBusinessDay, publishedAt } from '../../server/funds/calendar';
import { JOBS, runJob } from '../../server/jobs/index';
import type { TestServer } from './server';

/** Mutual-fund helpers of the server suites (server/funds). */

const navJob = JOBS.find((j) => j.name === 'funds:nav')!;

/** Runs the NAV job once: publishes NAVs that are out and strikes the orders waiting for them. */
export async function runNavJob(s: TestServer): Promise<void> {
  await runJob(s.deps, navJob);
}

/**
 * Moves the server's clock forward to `minutes` after midnight IST of the next business day at
 * which that time is still ahead (today's, when it is).
 */
export function toIstTime(s: TestServer, minutes: number): number {
  const now = s.clock.now();
  for (let day = indianDay(now); ; day++) {
    if (!isBusinessDay(day)) continue;
    const at = dayStart('NSE', day) + minutes * 60_000;
    if (at > now) {
      s.clock.advance(at - now);
      return day;
    }
  }
}

/** A business morning (10:00 IST): an order now gets today's NAV. */
export const beforeCutoff = (s: TestServer): number => toIstTime(s, 10 * 60);

/** Moves the clock just past the publication of `day`'s NAV and runs the NAV job. */
export async function afterPublished(s: TestServer, day: number): Promise<void> {
  const at = publishedAt(day) + 1000;
  const now = s.clock.now();
  if (at > now) s.clock.advance(at - now);
  await runNavJob(s);
}

/** Moves the clock forward by whole days (to the same time of day). */
export function advanceDays(s: TestServer, days: number): void {
  s.clock.advance(days * DAY_MS);
}

export { cutoffOf, publishedAt };
