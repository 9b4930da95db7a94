import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { ERR } from '#shared/contract/define';
import type { DB } from '../db/schema';
import { ApiError } from './errors';

/**
 * Attempt counters in the database (`login_attempts`), so every API instance sharing it sees the
 * same count. An attempt is reserved before it is evaluated — one atomic upsert that only counts
 * while the key is under its limit in the current window — so however many guesses arrive at once,
 * at most `limit` are ever evaluated. A failure keeps its reservation; a success clears the
 * key (the password was known) or gives back its own reservation (an address that also did right;
 * a second factor's count, which only time clears).
 */
export interface AttemptKey {
  key: string;
  limit: number;
  /** On success: `clear` forgets the key's failures, `release` gives back this one attempt. */
  onSuccess: 'clear' | 'release';
  /** This key's window, when it is not the one `attempt` was given. */
  windowMs?: number;
}

/** Takes one attempt of `key`; false when the key is at its limit in the current window. */
export async function reserveAttempt(
  db: Kysely<DB>,
  key: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<boolean> {
  if (limit <= 0) return false;
  const expired = now - windowMs;
  const row = await db
    .insertInto('login_attempts')
    .values({ key, failures: 1, window_start: now, locked_until: null })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({
          // An attempt after the window starts a new one.
          failures: sql<number>`case when login_attempts.window_start <= ${expired} then 1 else login_attempts.failures + 1 end`,
          window_start: sql<number>`case when login_attempts.window_start <= ${expired} then ${now} else login_attempts.window_start end`,
        })
        .where((eb) =>
          eb.or([
            eb('login_attempts.window_start', '<=', expired),
            eb('login_attempts.failures', '<', limit),
          ]),
        ),
    )
    .returning('failures')
    .executeTakeFirst();
  return row !== undefined;
}

async function releaseAttempt(db: Kysely<DB>, key: string): Promise<void> {
  await db
    .updateTable('login_attempts')
    .set({ failures: sql<number>`failures - 1` })
    .where('key', '=', key)
    .where('failures', '>', 0)
    .execute();
}

/**
 * Reserves an attempt on every key (all or none: `errors.tooManyAttempts`, 429), runs `verify`,
 * and settles the reservations by its answer. A `verify` that throws (e.g. the hash queue is full)
 * gives its reservations back: nothing was evaluated.
 */
export async function attempt(
  db: Kysely<DB>,
  keys: AttemptKey[],
  windowMs: number,
  now: number,
  verify: () => Promise<boolean>,
): Promise<boolean> {
  const taken: AttemptKey[] = [];
  for (const k of keys) {
    if (!(await reserveAttempt(db, k.key, k.limit, k.windowMs ?? windowMs, now))) {
      for (const t of taken) await releaseAttempt(db, t.key);
      throw new ApiError(ERR.tooManyAttempts, 429);
    }
    taken.push(k);
  }
  let ok: boolean;
  try {
    ok = await verify();
  } catch (err) {
    for (const t of taken) await releaseAttempt(db, t.key);
    throw err;
  }
  if (ok) {
    for (const k of keys) {
      if (k.onSuccess === 'clear') await db.deleteFrom('login_attempts').where('key', '=', k.key).execute();
      else await releaseAttempt(db, k.key);
    }
  }
  return ok;
}

/**
 * The address a limit counts: IPv4 as is (also when written IPv4-mapped), IPv6 by its /64 — one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would limit nobody.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g || '0', 16) || 0).toString(16))
    .join(':')}::/64`;
}
