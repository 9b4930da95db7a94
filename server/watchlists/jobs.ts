import type { Job } from '../jobs/job';
import { evaluateAlerts } from './alerts';

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
];
