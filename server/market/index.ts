import type { Config } from '../config';
import type { MarketProvider } from './provider';
import { createSimulator } from './simulator/index';
import { createYahooProvider, fixtureSource, httpSource } from './yahoo/index';

/** Chooses the provider named by the config (MARKET_PROVIDER: simulator, the default, or yahoo). */
export function createMarket(
  config: Config,
  now: () => number,
  onError?: (symbol: string, err: unknown) => void,
): MarketProvider {
  const m = config.market;
  if (m.provider === 'yahoo') {
    return createYahooProvider({
      source: m.yahooFixtures ? fixtureSource(m.yahooFixtures) : httpSource(m.yahooUrl),
      now,
      // A real source is polled less often than the simulator ticks: one request per symbol.
      refreshMs: Math.max(m.tickMs, 15_000),
      ...(onError ? { onError } : {}),
    });
  }
  return createSimulator({ seed: m.seed, tickMs: m.tickMs, now });
}
