import type { Config } from './config';
import type { Database } from './db/index';
import { type Clock, systemClock } from './lib/clock';
import { createMarket } from './market/index';
import type { MarketProvider } from './market/provider';
import { createPayments } from './payments/index';
import type { PaymentProvider } from './payments/provider';

/** What every route and job needs; built once in main.ts (or by a test) and passed to buildApp. */
export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  /** Market data: quotes, candles, instruments (server/market). */
  market: MarketProvider;
  /** The payment rail recharges and withdrawals settle through (server/payments). */
  payments: PaymentProvider;
}

/** The configured providers on the system clock (or the one given): what main, ops and tests use. */
export function createDeps(
  config: Config,
  database: Database,
  clock: Clock = systemClock(config.clockStart === null ? 0 : config.clockStart - Date.now()),
): Deps {
  return {
    config,
    database,
    clock,
    market: createMarket(config, clock.now),
    payments: createPayments(config),
  };
}
