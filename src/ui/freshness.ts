import { lastSession, type ScheduleId } from '../shared/market-hours';

/**
 * How fresh data on screen is, against its own poll interval (DESIGN rule 7):
 * - `live`: fetched within DELAYED_AFTER intervals (calm);
 * - `delayed`: within STALE_AFTER intervals (visible);
 * - `stale`: older, or known not to be live (from the device, the last refresh failed, the server
 *   cannot be reached) (strong);
 * - `closed`: a price of a market that is closed now, from its last session's close or later —
 *   right, not stale ("Closed · as of 15:30").
 */
export type Tier = 'live' | 'delayed' | 'stale' | 'closed';

export const DELAYED_AFTER = 2;
export const STALE_AFTER = 6;
/** The last price of a session may be stamped a little before its close. */
export const CLOSE_SLACK_MS = 2 * 60_000;

export interface FreshnessInput {
  /** The data's own time (a price's as-of; a list's fetch time). */
  at: number;
  /** When it was fetched, by the device's clock (defaults to `at`). */
  fetchedAt?: number | null;
  /** The device's clock now. */
  now: number;
  /** The server's clock now (defaults to `now`): `at` and a market's session are the server's. */
  serverNow?: number;
  /** Its poll interval; without one, age alone never marks it. */
  intervalMs?: number;
  /** Known not to be live. */
  stale?: boolean;
  /** The trading schedule of the instrument a price belongs to. */
  schedule?: ScheduleId;
}

export function freshness({
  at,
  fetchedAt,
  now,
  serverNow = now,
  intervalMs,
  stale,
  schedule,
}: FreshnessInput): Tier {
  if (schedule) {
    const session = lastSession(schedule, serverNow);
    if (serverNow >= session.close && at >= session.close - CLOSE_SLACK_MS) return 'closed';
  }
  if (stale) return 'stale';
  if (!intervalMs) return 'live';
  // Each clock against its own: a fetch the device timed, a price's own time the server's.
  const age = fetchedAt != null ? now - fetchedAt : serverNow - at;
  if (age <= DELAYED_AFTER * intervalMs) return 'live';
  if (age <= STALE_AFTER * intervalMs) return 'delayed';
  return 'stale';
}
