import type { Kysely } from 'kysely';
import type { SecurityChange } from '#shared/contract/security';
import { deviceName } from '#shared/device-name';
import type { DB } from '../db/schema';
import { sha256 } from '../lib/auth';
import { notify } from '../notify/notify';

/**
 * Security events reach the user as inbox notices: a factor added or removed, a passkey
 * refused as copied, a recovery code used or a new set made, a sign-in from a device not seen
 * before. The inbox is the price alerts' (`notifications`, kind `security`); `params.event` names
 * the event (`watch.inbox.security.<event>` in the app), the other params are its values. Written
 * with its push (notify/notify.ts): security notices reach every device, whatever the preferences.
 */
export type SecurityEvent =
  | 'passkeyAdded'
  | 'passkeyRemoved'
  | 'passkeyFlagged'
  | 'totpAdded'
  | 'totpRemoved'
  | 'recoveryUsed'
  | 'recoveryRenewed'
  | 'passwordReset'
  | 'newDevice'
  | 'factorReset'
  | 'staffPasswordReset';

/** The request a security event came from: the user agent and the address the server saw. */
export interface NoticeOrigin {
  userAgent: string | undefined;
  address: string;
}

/**
 * A notice names where its event came from, so the user can tell it was them: the device's name
 * from its user agent ("Chrome on Android") and the address the request came from — the server
 * knows no place beyond it, and guesses none.
 */
const originParams = (from: NoticeOrigin) => ({
  device: deviceName(from.userAgent ?? '').slice(0, 60),
  address: from.address.slice(0, 64),
});

export async function postSecurityNotice(
  db: Kysely<DB>,
  userId: number,
  event: SecurityEvent,
  now: number,
  params: Record<string, string | number>,
  from: NoticeOrigin,
): Promise<void> {
  await notify(db, {
    userId,
    kind: 'security',
    symbol: '',
    params: { ...params, ...originParams(from), event },
    at: now,
  });
}

/** A device's key: the app's random device id, or the user agent for a caller that sends none. */
export const deviceKey = (device: string | undefined, userAgent: string | undefined) =>
  sha256(device ? `id:${device}` : `ua:${userAgent ?? ''}`);

/**
 * Remembers the device (`deviceKey`) a full sign-in came from and tells the user when it is new —
 * but not for the account's first device, which is where they signed up.
 */
export async function noteDevice(
  db: Kysely<DB>,
  userId: number,
  id: string,
  now: number,
  from: NoticeOrigin,
): Promise<void> {
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
  if (others) await postSecurityNotice(db, userId, 'newDevice', now, {}, from);
}

/** Where a change came from: the device's key, and what the user is shown of it. */
export interface ChangeSource {
  /** known_devices.device (`deviceKey`). */
  device: string;
  userAgent: string | undefined;
  address: string;
  /** What the user is shown instead of the user agent's device (a change made by staff). */
  name?: string;
}

/**
 * The security changes that hold withdrawals and show on the other devices: the contract's list
 * (SecurityChange `event`), which must also be inbox security events.
 */
export type SecurityChangeEvent = Extract<SecurityEvent, SecurityChange['event']>;

/**
 * Records a factor change or a password reset beside its inbox notice: the inbox is
 * read by whoever holds a session — a thief too — so the change is also shown on the next sign-in
 * of every other device, with when and from where, until that device acknowledges it
 * (`securityChangesFor`), and withdrawals wait for a person for FACTOR_SETTLE_MS
 * (`lastSecurityChange`, wallet/withdraw.ts).
 */
export async function recordSecurityChange(
  db: Kysely<DB>,
  userId: number,
  event: SecurityChangeEvent,
  now: number,
  from: ChangeSource,
): Promise<void> {
  await db
    .insertInto('security_changes')
    .values({
      user_id: userId,
      event,
      at: now,
      device: from.device,
      device_name: (from.name ?? deviceName(from.userAgent ?? '')).slice(0, 60),
      address: from.address.slice(0, 64),
    })
    .execute();
}

/** When the user's security last changed (a factor or a password reset), or null. */
export async function lastSecurityChange(db: Kysely<DB>, userId: number): Promise<number | null> {
  const row = await db
    .selectFrom('security_changes')
    .select((eb) => eb.fn.max('at').as('at'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
}

/** How far back a device that never acknowledged any is shown changes. */
export const CHANGES_SHOWN_MS = 30 * 24 * 3_600_000;

/**
 * The changes the device `device` has not acknowledged, made from any other device: since its last
 * acknowledgement, or the last CHANGES_SHOWN_MS for a device that has none. Newest first, at most 20.
 */
export async function securityChangesFor(
  db: Kysely<DB>,
  userId: number,
  device: string,
  now: number,
): Promise<SecurityChange[]> {
  const seen = await db
    .selectFrom('known_devices')
    .select('changes_seen_at')
    .where('user_id', '=', userId)
    .where('device', '=', device)
    .executeTakeFirst();
  const since = seen?.changes_seen_at == null ? now - CHANGES_SHOWN_MS : Number(seen.changes_seen_at);
  const rows = await db
    .selectFrom('security_changes')
    .select(['id', 'event', 'at', 'device_name', 'address'])
    .where('user_id', '=', userId)
    .where('device', '!=', device)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    event: r.event as SecurityChange['event'],
    at: Number(r.at),
    from: r.device_name,
    address: r.address,
  }));
}

/** The device acknowledges the changes shown to it: up to `upTo` (the newest it was shown). */
export async function acknowledgeChanges(
  db: Kysely<DB>,
  userId: number,
  device: string,
  upTo: number,
  now: number,
): Promise<void> {
  const at = Math.min(upTo, now);
  await db
    .insertInto('known_devices')
    .values({ user_id: userId, device, first_at: now, last_at: now, changes_seen_at: at })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'device'])
        .doUpdateSet({ changes_seen_at: at })
        .where((eb) =>
          eb.or([
            eb('known_devices.changes_seen_at', 'is', null),
            eb('known_devices.changes_seen_at', '<', at),
          ]),
        ),
    )
    .execute();
}
