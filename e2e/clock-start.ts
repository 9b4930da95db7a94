/**
 * The instant the e2e servers' clocks start at (CLOCK_START, server/config.ts): the latest Wednesday
 * 10:30 IST (05:00 UTC) at or before now — inside an NSE session whatever the real hour or day, so a
 * market buy fills as a journey expects (issue 30: on a closed market it would be an after-market
 * order, pending until the open), and within a week of the browser's own date. Journeys that move
 * the clock (OPS_CLOCK) move it on from there.
 */
export function clockStart(now = Date.now()): string {
  const day = new Date(now);
  let at = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 5, 0, 0);
  while (new Date(at).getUTCDay() !== 3 || at > now) at -= 24 * 3600 * 1000;
  return new Date(at).toISOString();
}
