import type { Deps } from '../deps';
import { ApiError } from '../lib/errors';
import {
  assertTradingHours,
  DAY_MS,
  isMarketOpen as inSessionAt,
  lastSession,
  nextSession,
  sessionAt,
} from '../market/hours';
import type { Instrument } from '../market/provider';

/** The order engine's only view of trading hours (server/market/hours.ts knows each market's session). */

/**
 * Whether the instrument's market is in its session at `at`, whatever ENFORCE_TRADING_HOURS says:
 * an order placed outside it is an after-market order (engine.ts `placeAmo`), sent at the next open,
 * and nothing fills outside it (matching.ts).
 */
export function inSession(instrument: Instrument, at: number): boolean {
  return inSessionAt(instrument, at);
}

export { lastSession, nextSession, sessionAt };

/**
 * A lot — a block/QIP purchase, the sale of a lot — trades whole and at once at a price the live
 * market sets, so only in its market's session, whatever ENFORCE_TRADING_HOURS says: never at a
 * closed market's last price. Refused with SPEC's "No available time".
 */
export function assertInSession(instrument: Instrument, at: number): void {
  if (!inSessionAt(instrument, at)) throw new ApiError('errors.noAvailableTime', 400);
}

/** Rejects an order outside the instrument's session (SPEC 'No available time'). */
export function assertMarketOpen(deps: Deps, instrument: Instrument): void {
  assertTradingHours(instrument, deps.clock.now(), deps.config);
}

/**
 * When a pending order placed at `at` expires: the close of the session it was placed in, or of
 * the next session when its market was closed at the time.
 */
export function sessionEnd(instrument: Instrument, at: number): number {
  const session = lastSession(instrument.schedule, at);
  return at < session.close ? session.close : nextSession(instrument.schedule, at).close;
}

/**
 * When a block/QIP lot bought at `at` may be sold (BLOCK_LOCKIN): the open of the instrument's next
 * trading session (a symbol the market does not list yet waits a day), or a fixed delay.
 */
export function lotUnlockAt(deps: Deps, instrument: Instrument | undefined, at: number): number {
  const lockIn = deps.config.blockLockIn;
  if (lockIn !== 'session') return at + lockIn;
  return instrument ? nextSession(instrument.schedule, at).open : at + DAY_MS;
}
