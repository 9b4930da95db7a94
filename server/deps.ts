import type { Config } from './config';
import type { Database } from './db/index';
import type { Clock } from './lib/clock';
import type { MarketProvider } from './market/provider';

/** What every route and job needs; built once in main.ts (or by a test) and passed to buildApp. */
export interface Deps {
  config: Config;
  database: Database;
  clock: Clock;
  market: MarketProvider;
}
