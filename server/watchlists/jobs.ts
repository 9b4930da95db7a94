import type { Job } from '../jobs/job';
import { evaluateAlerts, purgeInbox } from './alerts';

/** Price alerts are evaluated after every market tick (server/jobs: tick jobs). */
export const watchlistJobs: Job[] = [
  {
    name: 'alerts:tick',
    everyMs: 1000,
    onTick: true,
    async run(deps) {
      await evaluateAlerts(deps);
    },
  },
  {
    name: 'inbox:purge',
    everyMs: 3600 * 1000,
    async run(deps) {
      await purgeInbox(deps);
    },
  },
];
