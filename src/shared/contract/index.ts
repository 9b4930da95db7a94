import { accountContract } from './account';
import { configContract } from './config';
import { contentContract } from './content';
import { investContract } from './invest';
import { marketContract } from './market';
import { settingsContract } from './settings';
import { tradingContract } from './trading';
import { walletContract } from './wallet';

export * from './define';

/** Every call of the API (SPEC §7), by name. */
export const contract = {
  ...accountContract,
  ...configContract,
  ...marketContract,
  ...tradingContract,
  ...investContract,
  ...walletContract,
  ...settingsContract,
  ...contentContract,
};

export type Contract = typeof contract;
export type EndpointName = keyof Contract;
