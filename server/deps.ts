import type { Config } from './config';
import type { Database } from './db/index';
import { sealAuditLog } from './lib/audit-log';
import { createAuditSeal } from './lib/audit-seal';
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
  // The audit log's key and heads file come with the configuration, never from the database.
  sealAuditLog(database, createAuditSeal(config.audit.key, config.audit.headsFile));
  return {
    config,
    database,
    clock,
    market: createMarket(config, clock.now),
    payments: createPayments(config),
  };
}
