import type { Deps } from '../deps';

/**
 * Background jobs (settlements, maturities, order expiry). Each job is idempotent and runs at its
 * interval. With several API instances on PostgreSQL only the elected leader runs jobs
 * (`electLeader`: a session advisory lock; another instance takes over when the leader goes away),
 * and each run also holds a transaction-scoped advisory lock of its job, so two runs of one job
 * never overlap even while leadership changes hands. Tests call `runJob` directly after moving the
 * clock.
 */
export interface Job {
  name: string;
  /** How often it runs; ignored for a tick job. */
  everyMs: number;
  /**
   * Runs after every market tick instead of on a timer (price alerts). Ticks arrive while a run is
   * under way are coalesced into one more run after it, so the job never falls behind or overlaps.
   */
  onTick?: boolean;
  run(deps: Deps): Promise<void>;
}
