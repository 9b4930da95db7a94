import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { sha256 } from '../lib/auth';

/**
 * Security events reach the user as inbox notices (issue 32): a factor added or removed, a passkey
 * refused as copied, a recovery code used or a new set made, a sign-in from a device not seen
 * before. The inbox is the price alerts' (`notifications`, kind `security`); `params.event` names
 * the event (`watch.inbox.security.<event>` in the app), the other params are its values.
 */
export type SecurityEvent =
  | 'passkeyAdded'
  | 'passkeyRemoved'
  | 'passkeyFlagged'
  | 'totpAdded'
  | 'totpRemoved'
  | 'recoveryUsed'
  | 'recoveryRenewed'
  | 'newDevice';

export async function postSecurityNotice(
  db: Kysely<DB>,
  userId: number,
  event: SecurityEvent,
  now: number,
  params: Record<string, string | number> = {},
): Promise<void> {
  await db
    .insertInto('notifications')
    .values({
      user_id: userId,
      kind: 'security',
      ref_id: null,
      symbol: '',
      params: JSON.stringify({ ...params, event }),
      created_at: now,
      read_at: null,
    })
    .execute();
}

/** A device's key: the app's random device id, or the user agent for a caller that sends none. */
export const deviceKey = (device: string | undefined, userAgent: string | undefined) =>
  sha256(device ? `id:${device}` : `ua:${userAgent ?? ''}`);

/**
 * Remembers the device (`deviceKey`) a full sign-in came from and tells the user when it is new —
 * but not for the account's first device, which is where they signed up.
 */
export async function noteDevice(db: Kysely<DB>, userId: number, id: string, now: number): Promise<void> {
  const seen = await db
    .updateTable('known_devices')
    .set({ last_at: now })
    .where('user_id', '=', userId)
    .where('device', '=', id)
    .executeTakeFirst();
  if (Number(seen.numUpdatedRows) > 0) return;
  const others = await db
    .selectFrom('known_devices')
    .select('device')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  await db
    .insertInto('known_devices')
    .values({ user_id: userId, device: id, first_at: now, last_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'device']).doUpdateSet({ last_at: now }))
    .execute();
  if (others) await postSecurityNotice(db, userId, 'newDevice', now);
}
