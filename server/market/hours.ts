import type { MarketSession } from '#shared/contract/market';
import { isMarketOpen, lastSession, nextSession, type Scheduled } from '#shared/market-hours';
import { ApiError } from '../lib/errors';

/** The pure schedule lives in src/shared (the app marks closed markets with it); order code's door is here. */
export * from '#shared/market-hours';

/** The i18n key of SPEC's "No available time". */
const NO_AVAILABLE_TIME = 'errors.noAvailableTime';

/**
 * For order code: rejects with `errors.noAvailableTime` when trading hours are enforced
 * (`config.market.enforceHours`, env ENFORCE_TRADING_HOURS=1) and the market is closed at `at`.
 */
export function assertTradingHours(
  instrument: Scheduled,
  at: number,
  config: { market: { enforceHours: boolean } },
): void {
  if (config.market.enforceHours && !isMarketOpen(instrument, at)) {
    throw new ApiError(NO_AVAILABLE_TIME, 400);
  }
}

/** The instrument's session at `at` as answers carry it (depth, the order quote): the server's clock decides. */
export function sessionAt(instrument: Scheduled, at: number): MarketSession {
  const open = isMarketOpen(instrument, at);
  return {
    open,
    opens_at: open ? null : nextSession(instrument.schedule, at).open,
    closes_at: lastSession(instrument.schedule, at).close,
  };
}
