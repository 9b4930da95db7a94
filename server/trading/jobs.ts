import type { Job } from '../jobs/job';
import { matureFunds } from './funds';
import { matchPendingOrders } from './matching';
import { squareOffIntraday } from './squareoff';

/** Trading's background work: pending stock orders each market tick, intraday square-off, fund maturities. */
export const tradingJobs: Job[] = [
  {
    name: 'orders:match',
    everyMs: 1000,
    async run(deps) {
      await matchPendingOrders(deps);
    },
  },
  {
    // Intraday positions (issue 30): squared off once their session has closed.
    name: 'orders:squareoff',
    everyMs: 1000,
    async run(deps) {
      await squareOffIntraday(deps);
    },
  },
  {
    // Every second, like the other settlement jobs: one indexed read (fund_orders_due) when nothing
    // is due, and a payout arrives within a second of its end time (or of an operator clock move).
    name: 'funds:mature',
    everyMs: 1000,
    async run(deps) {
      await matureFunds(deps);
    },
  },
];
