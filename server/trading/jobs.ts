import type { Job } from '../jobs/job';
import { matchPendingOrders } from './matching';
import { squareOffIntraday } from './squareoff';

/** Trading's background work: pending stock orders each market tick, intraday square-off. */
export const tradingJobs: Job[] = [
  {
    name: 'orders:match',
    everyMs: 1000,
    async run(deps) {
      await matchPendingOrders(deps);
    },
  },
  {
    // Intraday positions: squared off once their session has closed.
    name: 'orders:squareoff',
    everyMs: 1000,
    async run(deps) {
      await squareOffIntraday(deps);
    },
  },
];
