import type { Job } from '../jobs/job';
import { sendPushes } from './sender';

/** What the outbox keeps once sent: a week of notices and their deliveries, then they go. */
export const PUSH_KEEP_MS = 7 * 24 * 3600_000;

/**
 * The push sender runs five times a second on the leader: when nothing waits, one indexed read of
 * the outbox and one of the deliveries. A notice waits at most that long before it is sent.
 */
export const pushJobs: Job[] = [
  {
    name: 'push:send',
    everyMs: 200,
    async run(deps) {
      await sendPushes(deps);
    },
  },
  {
    name: 'push:purge',
    everyMs: 3600_000,
    async run(deps) {
      await deps.database.db
        .deleteFrom('push_outbox')
        .where('created_at', '<', deps.clock.now() - PUSH_KEEP_MS)
        .execute();
    },
  },
];
