import { useWatch, type Watched } from '../../../api/hooks';
import type { FxRate } from '../../../shared/contract/invest';
import { PRICE_SCALE, priceToTicks } from '../../../shared/money';
import { POLL_MS } from '../../../shared/rules';

/**
 * The USD rate the server converts at now (`fxRate`, server/trading/fx.ts): the live USD quote in
 * the account currency, else the operator's configured rate, each while fresh. Previews convert
 * with it and nothing else; the app never sends a rate — the server decides the price and records
 * the rate it used.
 */
export function useUsdRate(enabled = true): UsdRate {
  return usdRateOf(useWatch('fxRate', enabled ? {} : null, POLL_MS.prices));
}

export interface UsdRate extends Watched<FxRate> {
  fx: FxRate | undefined;
  /** Account-currency ticks per unit of `unit`: 1:1 unless USD; null while the USD rate is unknown. */
  ticksFor(unit: string): number | null;
  /** Money in `unit` is refused now for want of a fresh rate (SPEC §8 "Exchange rate has not been updated"). */
  refusedFor(unit: string): boolean;
}

/** The rate's rules over a watched `fxRate` answer (pure: the DOM tests build one). */
export function usdRateOf(watched: Watched<FxRate>): UsdRate {
  const fx = watched.data;
  return {
    ...watched,
    fx,
    ticksFor(unit) {
      if (unit !== 'USD') return PRICE_SCALE;
      return fx?.rate == null ? null : priceToTicks(fx.rate);
    },
    refusedFor(unit) {
      return unit === 'USD' && fx !== undefined && !fx.fresh;
    },
  };
}

/** Decimals a rate is shown with: two, or as many of its four as it has ("88.5" → 88.50, 88.7123). */
export function rateDecimals(rate: number): number {
  const ticks = priceToTicks(rate);
  return ticks % 100 === 0 ? 2 : ticks % 10 === 0 ? 3 : 4;
}
