import { accountContract } from './account';
import { configContract } from './config';
import { contentContract } from './content';
import { joinDomains } from './define';
import { fundsContract } from './funds';
import { investContract } from './invest';
import { marketContract } from './market';
import { portfolioContract } from './portfolio';
import { pushContract } from './push';
import { securityContract } from './security';
import { settingsContract } from './settings';
import { tradingContract } from './trading';
import { walletContract } from './wallet';
import { watchlistContract } from './watchlist';

export * from './define';

/** Every call of the API (SPEC §7), by name; a name or a route defined twice throws here. */
export const contract = joinDomains({
  account: accountContract,
  config: configContract,
  market: marketContract,
  trading: tradingContract,
  invest: investContract,
  funds: fundsContract,
  wallet: walletContract,
  settings: settingsContract,
  content: contentContract,
  watchlist: watchlistContract,
  portfolio: portfolioContract,
  security: securityContract,
  push: pushContract,
});

export type Contract = typeof contract;
export type EndpointName = keyof Contract;
