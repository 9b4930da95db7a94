import type { Job } from '../jobs/job';
import { publishNavs, strikeDue } from './strike';

/**
 * Every second, like the other settlement jobs: the funds' rows are few and the pending orders are
 * read through fund_orders_due (status, end_time), so an idle run is two small reads; an order is
 * struck within a second of its NAV's publication (or of an operator's clock move).
 */
export const fundJobs: Job[] = [
  {
    name: 'funds:nav',
    everyMs: 1000,
    async run(deps) {
      await publishNavs(deps);
      await strikeDue(deps);
    },
  },
];
