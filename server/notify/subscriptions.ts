import { createPublicKey } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PushDevice, PushPrefs, PushSettings } from '#shared/contract/push';
import { PUSH_TOGGLE_KINDS, type PushToggleKind } from '#shared/notices';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { lockUser } from '../lib/ledger';
import { vapidKeys } from './vapid';

/**
 * This device's subscription and the user's preferences. An endpoint is where the server
 * will POST, so it is checked like any address a client hands a server: https on a known push
 * service (config.push.hosts), never a user's choice of host. An endpoint belongs to one browser:
 * subscribing it again moves it to the caller (the device changed hands), within the caller's cap.
 */

export const DEFAULT_PREFS: PushPrefs = {
  kinds: { alert: true, order: true, ipo: true, payout: true, chat: true },
  amounts: false,
  quiet: null,
};

/** The refusal of an endpoint the server would not send to. */
const badEndpoint = () => invalid('errors.pushEndpoint');

export function checkEndpoint(deps: Deps, endpoint: string): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw badEndpoint();
  }
  if (url.username || url.password || url.hash) throw badEndpoint();
  const { push } = deps.config;
  if (push.loopback && url.protocol === 'http:' && url.hostname === '127.0.0.1') return;
  if (url.protocol !== 'https:' || (url.port !== '' && url.port !== '443')) throw badEndpoint();
  const host = url.hostname.toLowerCase();
  if (!push.hosts.some((h) => host === h || host.endsWith(`.${h}`))) throw badEndpoint();
}

/** The device's key is a point on P-256 (65 bytes, uncompressed) and its secret 16 bytes (RFC 8291). */
function checkKeys(keys: { p256dh: string; auth: string }): void {
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4 || Buffer.from(keys.auth, 'base64url').length !== 16)
    throw invalid();
  try {
    createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
  } catch {
    throw invalid();
  }
}

const toDevice = (r: {
  id: number;
  device: string;
  created_at: number;
  last_success_at: number | null;
}): PushDevice => ({
  id: r.id,
  device: r.device,
  created_at: Number(r.created_at),
  last_success_at: r.last_success_at === null ? null : Number(r.last_success_at),
});

export async function subscribe(
  deps: Deps,
  userId: number,
  input: { endpoint: string; keys: { p256dh: string; auth: string }; device: string; lang: string },
): Promise<PushDevice> {
  checkEndpoint(deps, input.endpoint);
  checkKeys(input.keys);
  const device = input.device.trim().slice(0, 60) || 'Device';
  const now = deps.clock.now();
  const { maxDevices } = deps.config.push;
  const row = await withTx(deps.database, async (trx) => {
    await lockUser(trx, deps.database.dialect, userId);
    const known = await trx
      .selectFrom('push_subscriptions')
      .select(['id', 'user_id'])
      .where('endpoint', '=', input.endpoint)
      .executeTakeFirst();
    const fields = {
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      device,
      lang: input.lang,
      failures: 0,
    };
    if (known?.user_id === userId)
      return trx
        .updateTable('push_subscriptions')
        .set(fields)
        .where('id', '=', known.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    const held = await trx
      .selectFrom('push_subscriptions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= maxDevices) throw new ApiError('errors.pushDeviceLimit', 409, { max: maxDevices });
    // Another user's until now: their notices must not follow the device to its new owner.
    if (known) await trx.deleteFrom('push_subscriptions').where('id', '=', known.id).execute();
    return trx
      .insertInto('push_subscriptions')
      .values({
        user_id: userId,
        endpoint: input.endpoint,
        ...fields,
        created_at: now,
        last_success_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return toDevice(row);
}

/**
 * The browser replaced a subscription (the service worker's `pushsubscriptionchange`): the row of
 * the old endpoint takes the new endpoint and keys, keeping its owner, name and language. The new
 * endpoint is this browser's, so a row already holding it (a subscription the page made meanwhile)
 * gives way. Deliveries still due to the old endpoint go to the new one.
 */
export async function resubscribe(
  deps: Deps,
  input: { old_endpoint: string; endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<void> {
  checkEndpoint(deps, input.endpoint);
  checkKeys(input.keys);
  await withTx(deps.database, async (trx) => {
    const old = await trx
      .selectFrom('push_subscriptions')
      .select(['id', 'user_id'])
      .where('endpoint', '=', input.old_endpoint)
      .executeTakeFirst();
    if (!old) throw notFound();
    if (input.endpoint !== input.old_endpoint)
      await trx.deleteFrom('push_subscriptions').where('endpoint', '=', input.endpoint).execute();
    await trx
      .updateTable('push_subscriptions')
      .set({ endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, failures: 0 })
      .where('id', '=', old.id)
      .execute();
  });
}

export async function unsubscribe(deps: Deps, userId: number, id: number): Promise<void> {
  const res = await deps.database.db
    .deleteFrom('push_subscriptions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) throw notFound();
}

/** Minutes of the day from "HH:MM". */
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

type PrefsRow = {
  muted: string;
  amounts: number;
  quiet_start: number | null;
  quiet_end: number | null;
  quiet_tz: string | null;
};

export function prefsOf(row: PrefsRow | undefined): PushPrefs {
  if (!row) return DEFAULT_PREFS;
  const muted = new Set(JSON.parse(row.muted) as string[]);
  return {
    kinds: Object.fromEntries(PUSH_TOGGLE_KINDS.map((k) => [k, !muted.has(k)])) as Record<
      PushToggleKind,
      boolean
    >,
    amounts: row.amounts === 1,
    quiet:
      row.quiet_start === null || row.quiet_end === null || !row.quiet_tz
        ? null
        : { start: hhmm(row.quiet_start), end: hhmm(row.quiet_end), tz: row.quiet_tz },
  };
}

/** Whether `at` falls in the quiet hours (local time of their zone; a span may run past midnight). */
export function inQuietHours(quiet: PushPrefs['quiet'], at: number): boolean {
  if (!quiet) return false;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: quiet.tz,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const now = get('hour') * 60 + get('minute');
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

export async function setPrefs(deps: Deps, userId: number, prefs: PushPrefs): Promise<PushPrefs> {
  if (prefs.quiet) {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: prefs.quiet.tz });
    } catch {
      throw invalid('errors.pushTimezone');
    }
    if (prefs.quiet.start === prefs.quiet.end) throw invalid();
  }
  const row = {
    muted: JSON.stringify(PUSH_TOGGLE_KINDS.filter((k) => !prefs.kinds[k])),
    amounts: prefs.amounts ? 1 : 0,
    quiet_start: prefs.quiet ? minutes(prefs.quiet.start) : null,
    quiet_end: prefs.quiet ? minutes(prefs.quiet.end) : null,
    quiet_tz: prefs.quiet?.tz ?? null,
    updated_at: deps.clock.now(),
  };
  await deps.database.db
    .insertInto('push_prefs')
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
  return prefsOf(row);
}

export async function loadPrefs(db: Kysely<DB>, userIds: number[]): Promise<Map<number, PushPrefs>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('push_prefs').selectAll().where('user_id', 'in', userIds).execute();
  return new Map(rows.map((r) => [r.user_id, prefsOf(r)]));
}

export async function pushSettings(deps: Deps, userId: number): Promise<PushSettings> {
  const { db } = deps.database;
  const [keys, prefs, devices] = await Promise.all([
    vapidKeys(deps),
    loadPrefs(db, [userId]),
    db
      .selectFrom('push_subscriptions')
      .select(['id', 'device', 'created_at', 'last_success_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute(),
  ]);
  return {
    public_key: keys.publicKey,
    prefs: prefs.get(userId) ?? DEFAULT_PREFS,
    devices: devices.map(toDevice),
    max_devices: deps.config.push.maxDevices,
  };
}
