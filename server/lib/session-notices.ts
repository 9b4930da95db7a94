import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { sessionCache, sha256 } from './auth';

/**
 * Ended sessions, told to every instance on one PostgreSQL database (LISTEN/NOTIFY), so each may
 * remember valid sessions for a minute (lib/session-cache.ts) and still refuse a logged-out token
 * within milliseconds everywhere. One instance alone (SQLite) only forgets its own.
 *
 * A notice names the token's SHA-256 (`h:<hex>`, never the token) or the user (`u:<id>`: all of a
 * user's sessions, a password change or reset). It is sent inside the transaction that ends the
 * sessions: PostgreSQL delivers it at the commit, or never if the transaction rolls back.
 */
const CHANNEL = 'bourse_sessions_ended';

export type Ended = { token: string } | { userId: number };

/** Inside the transaction that ends sessions, before it commits. */
export async function noticeEnded(trx: Kysely<DB>, deps: Deps, ended: Ended): Promise<void> {
  if (deps.database.dialect !== 'postgres') return;
  const payload = 'token' in ended ? `h:${sha256(ended.token)}` : `u:${ended.userId}`;
  await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(trx);
}

/** After that commit: this instance forgets them at once (its own notice arrives too, later). */
export function forgetEnded(deps: Deps, ended: Ended): void {
  const cache = sessionCache(deps);
  if ('token' in ended) cache.forgetToken(ended.token);
  else cache.forgetUser(ended.userId);
}

const NOTICE = /^(?:h:([0-9a-f]{64})|u:([1-9][0-9]{0,15}))$/;

/** Applies one notice to the cache; anything else on the channel is ignored. */
function applyNotice(deps: Deps, payload: string | undefined): void {
  const m = NOTICE.exec(payload ?? '');
  if (!m) return;
  if (m[1]) sessionCache(deps).forgetHash(m[1]);
  else sessionCache(deps).forgetUser(Number(m[2]));
}

/** How long to wait before listening again after the connection failed. */
const RETRY_MS = 1000;
/** How often the listener proves it still hears (see hearEndedSessions). */
const PING_MS = 2000;

/**
 * PostgreSQL: listens for notices on a connection of its own (not the pool's) for as long as the
 * instance runs, reconnecting after a failure; the cache trusts no entry older than a second while
 * it is not listening (session-cache.ts `hearing`). A connection that only listens can die without
 * a word (an idle connection dropped by a firewall, a failover, a pooler that takes LISTEN and
 * never delivers): so every `pingMs` it sends a notice of its own through the same path, and one
 * that has not come back by the next ping counts as lost — a deaf instance finds out within two
 * pings. Returns a stop function. SQLite: nothing to do.
 */
export function hearEndedSessions(
  deps: Deps,
  log: (msg: string, err: unknown) => void,
  options: { pingMs?: number } = {},
): () => void {
  if (deps.database.dialect !== 'postgres') return () => {};
  const pingMs = options.pingMs ?? PING_MS;
  const cache = sessionCache(deps);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let pinger: ReturnType<typeof setInterval> | null = null;
  /** The ping on its way back, if any. */
  let awaiting: string | null = null;
  let pings = 0;
  const lost = (c: pg.Client, err?: unknown) => {
    if (c !== client) return;
    client = null;
    cache.hearing(false);
    if (pinger) clearInterval(pinger);
    pinger = null;
    awaiting = null;
    c.end().catch(() => {});
    if (stopped) return;
    if (err) log('session notices: connection lost, listening again shortly', err);
    retry = setTimeout(connect, RETRY_MS);
  };
  const ping = (c: pg.Client) => {
    if (awaiting !== null) return lost(c, new Error('session notices: a ping did not come back'));
    awaiting = `ping:${process.pid}:${++pings}`;
    c.query('select pg_notify($1, $2)', [CHANNEL, awaiting]).catch((err) => lost(c, err));
  };
  const connect = () => {
    retry = null;
    if (stopped) return;
    const c = new pg.Client({
      connectionString: deps.config.databaseUrl,
      application_name: `bourse-sessions:${process.pid}`,
      keepAlive: true,
    });
    client = c;
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (n.channel !== CHANNEL || c !== client) return;
      if (n.payload === awaiting) awaiting = null;
      else applyNotice(deps, n.payload);
    });
    c.connect()
      .then(() => c.query(`listen ${CHANNEL}`))
      .then(() => {
        if (c !== client) return;
        // From here on every notice arrives: entries read while deaf are dropped by hearing(true).
        cache.hearing(true);
        pinger = setInterval(() => ping(c), pingMs);
      })
      .catch((err) => lost(c, err));
  };
  connect();
  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    if (pinger) clearInterval(pinger);
    const c = client;
    client = null;
    cache.hearing(false);
    c?.end().catch(() => {});
  };
}
