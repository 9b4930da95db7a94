import { isMarketOpen, lastSession } from '../src/shared/market-hours';

/**
 * Where the e2e servers' clocks start (CLOCK_START, server/config.ts), so that the journeys run inside
 * an NSE session whatever the real hour or day (a market buy on a closed market is an
 * after-market order, pending until the open, where a journey expects a fill): the real time when an
 * NSE session has at least `room` left, else 15 minutes after the last session's open (behind the
 * real time: a server ahead of the browser ended a session the app had just opened without its
 * reason, auth.spec). What the app compares with the server's times goes through the server's clock
 * (x-server-time: "while you were away"; an authenticator's codes in the journeys, serverNow).
 * Journeys that move the clock (OPS_CLOCK) move it on from there.
 */
export function clockStart(now = Date.now(), room = 45 * 60_000): string | undefined {
  if (isMarketOpen({ schedule: 'NSE' }, now) && now + room < lastSession('NSE', now).close) return undefined;
  return new Date(lastSession('NSE', now).open + 15 * 60_000).toISOString();
}

let chosen: { at: string | undefined; when: number } | null = null;

/** CLOCK_START for an e2e server's environment: E2E_CLOCK_START, else `clockStart()` (none: the real time). */
export function clockStartEnv(): Record<string, string> {
  chosen ??= { at: process.env.E2E_CLOCK_START ?? clockStart(), when: Date.now() };
  return chosen.at ? { CLOCK_START: chosen.at } : {};
}

/**
 * The server's clock now, from the stamp on its answers (x-server-time): an authenticator app's
 * code is computed for that instant, since the e2e servers' clocks may run ahead of the browser's (CLOCK_START).
 */
export async function serverNow(origin: string): Promise<number> {
  const res = await fetch(`${origin}/healthz`);
  const at = Number(res.headers.get('x-server-time'));
  if (!(at > 0)) throw new Error(`${origin}/healthz carries no x-server-time`);
  return at;
}
