import { sql } from 'kysely';
import { ERR } from '../../src/shared/contract/define';
import type { Deps } from '../deps';
import { ApiError } from './errors';

/**
 * Failed logins are counted per phone number and per client address in the database, so the limit
 * holds across several API instances. Past the limit within the window the key is locked for one
 * window; a success clears the phone's count.
 */
const phoneKey = (phone: string) => `phone:${phone}`;
const ipKey = (ip: string) => `ip:${ip}`;

export async function assertLoginAllowed(deps: Deps, phone: string, ip: string): Promise<void> {
  const now = deps.clock.now();
  const locked = await deps.database.db
    .selectFrom('login_attempts')
    .select('key')
    .where('key', 'in', [phoneKey(phone), ipKey(ip)])
    .where('locked_until', '>', now)
    .executeTakeFirst();
  if (locked) throw new ApiError(ERR.tooManyAttempts, 429);
}

export async function recordLoginFailure(deps: Deps, phone: string, ip: string): Promise<void> {
  const { perPhone, perAddress, windowMs } = deps.config.loginLimit;
  const now = deps.clock.now();
  for (const [key, limit] of [
    [phoneKey(phone), perPhone],
    [ipKey(ip), perAddress],
  ] as const) {
    await deps.database.db
      .insertInto('login_attempts')
      .values({ key, failures: 1, window_start: now, locked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          // A failure outside the window starts a new one.
          failures: sql<number>`case when login_attempts.window_start <= ${now - windowMs} then 1 else login_attempts.failures + 1 end`,
          window_start: sql<number>`case when login_attempts.window_start <= ${now - windowMs} then ${now} else login_attempts.window_start end`,
        }),
      )
      .execute();
    await deps.database.db
      .updateTable('login_attempts')
      .set({ locked_until: now + windowMs, failures: 0, window_start: now })
      .where('key', '=', key)
      .where('failures', '>=', limit)
      .execute();
  }
}

export async function recordLoginSuccess(deps: Deps, phone: string): Promise<void> {
  await deps.database.db.deleteFrom('login_attempts').where('key', '=', phoneKey(phone)).execute();
}
