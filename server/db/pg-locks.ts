import pg from 'pg';

/**
 * PostgreSQL session-level advisory locks for running several API instances on one database, each
 * on a connection of its own (not the pool's): the lock lives exactly as long as that connection,
 * so an instance that dies — even by kill -9 — gives it up the moment PostgreSQL sees the socket
 * close. Keys are in the two-int4 space under one class id, apart from the one-key transaction
 * locks `runJob` takes per job.
 */
export const LOCK_CLASS = 0x626f7572; // 'bour'
export const LOCKS = { jobsLeader: 1, startup: 2 } as const;

/**
 * Runs `fn` while holding `key` (waiting for it): instances started together migrate and seed one
 * after another, so the seed's "insert when empty" steps never run twice at once.
 */
export async function withPgLock<T>(url: string, key: number, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: `bourse-startup:${process.pid}` });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1, $2)', [LOCK_CLASS, key]);
    return await fn();
  } finally {
    // Ending the session releases the lock as well; an error here must not hide fn's outcome.
    await client.end().catch(() => {});
  }
}

export interface Leadership {
  /** This instance holds the lock now. */
  readonly leading: boolean;
  /** Gives the lock up (ends its connection). */
  stop(): void;
}

/**
 * Leader election by a session advisory lock: every `retryMs` an instance that does not lead tries
 * to take the lock, and the leader checks its connection is still alive; `onLead` runs on each
 * takeover. Exactly one connected instance leads; when it goes away another takes over within
 * `retryMs`.
 */
export function electLeader(
  url: string,
  options: { retryMs: number; onLead: () => void; log: (msg: string, err: unknown) => void },
): Leadership {
  let client: pg.Client | null = null;
  let leading = false;
  let stopped = false;
  let busy = false;
  const lose = (c: pg.Client | null) => {
    if (c === null || c !== client) return;
    client = null;
    leading = false;
    c.end().catch(() => {});
  };
  const attempt = async () => {
    if (stopped || busy) return;
    busy = true;
    let c = client;
    try {
      if (c === null) {
        const fresh = new pg.Client({
          connectionString: url,
          application_name: `bourse-jobs:${process.pid}`,
          keepAlive: true,
        });
        fresh.on('error', () => lose(fresh));
        fresh.on('end', () => lose(fresh));
        client = c = fresh;
        await fresh.connect();
      }
      if (leading) {
        await c.query('select 1');
        return;
      }
      const { rows } = await c.query<{ locked: boolean }>('select pg_try_advisory_lock($1, $2) as locked', [
        LOCK_CLASS,
        LOCKS.jobsLeader,
      ]);
      if (stopped || c !== client) return lose(c);
      if (rows[0]?.locked) {
        leading = true;
        options.onLead();
      }
    } catch (err) {
      lose(c);
      if (!stopped) options.log('jobs: leader election failed (retrying)', err);
    } finally {
      busy = false;
    }
  };
  void attempt();
  const timer = setInterval(() => void attempt(), options.retryMs);
  return {
    get leading() {
      return leading;
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      lose(client);
    },
  };
}
