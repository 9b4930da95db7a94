import * as Type from '@sinclair/typebox';
import type { PushToggleKind } from '../notices';
import { endpoint } from './define';
import { NoQuery, RowId, Strict } from './schemas';

/**
 * Web Push: this device's subscription and the user's notification preferences. The
 * server sends each notice (server/notify) to every subscribed device of the user, encrypted for
 * that device (RFC 8291) and signed with the server's VAPID key (RFC 8292).
 */

export interface PushPrefs {
  /** Each group on (true) or off. Security notices are always sent. */
  kinds: Record<PushToggleKind, boolean>;
  /** Lock-screen text with amounts and prices; off: only what happened and the instrument. */
  amounts: boolean;
  /** No pushes between these local times (HH:MM, `tz` an IANA zone), security notices excepted; null: none. */
  quiet: { start: string; end: string; tz: string } | null;
}

/** A subscribed device as its owner sees it (never its endpoint or keys). */
export interface PushDevice {
  id: number;
  device: string;
  created_at: number;
  last_success_at: number | null;
}

export interface PushSettings {
  /** The server's VAPID public key (base64url): the `applicationServerKey` of a subscription. */
  public_key: string;
  prefs: PushPrefs;
  devices: PushDevice[];
  /** How many devices may be subscribed at once. */
  max_devices: number;
}

const B64Url = (min: number, max: number) =>
  Type.String({ minLength: min, maxLength: max, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

export const pushContract = {
  /** The VAPID key, the preferences and the subscribed devices. */
  pushSettings: endpoint<PushSettings>()({
    method: 'GET',
    path: '/stock/success/push/settings',
    auth: true,
    req: NoQuery,
  }),
  /**
   * Subscribes this device (`PushSubscription.toJSON()`): an endpoint already known is moved to the
   * caller with its new keys (one browser, one subscription); at most `max_devices` per user.
   */
  pushSubscribe: endpoint<PushDevice>()({
    method: 'POST',
    path: '/stock/success/push/subscribe',
    auth: true,
    req: Strict({
      endpoint: Type.String({ minLength: 12, maxLength: 1024 }),
      // p256dh: an uncompressed P-256 point (65 bytes → 87 characters); auth: 16 bytes (22).
      keys: Strict({ p256dh: B64Url(80, 96), auth: B64Url(20, 32) }),
      device: Type.String({ minLength: 1, maxLength: 60 }),
      /** The device's language: the notices it receives are written in it. */
      lang: Type.Union([Type.Literal('en'), Type.Literal('zh'), Type.Literal('es'), Type.Literal('de')]),
    }),
  }),
  /**
   * The server's VAPID public key, to anyone: it is public by nature, and the service worker, which
   * holds no session, needs it to subscribe again when the browser replaces a subscription.
   */
  pushKey: endpoint<{ public_key: string }>()({
    method: 'GET',
    path: '/stock/success/push/key',
    auth: false,
    req: NoQuery,
  }),
  /**
   * The browser replaced this device's subscription (`pushsubscriptionchange`): the service
   * worker, which holds no session, proves the device by its old endpoint — a capability only the
   * browser and the server know — and the device keeps its owner, name and language with the new
   * endpoint and keys. An old endpoint the server does not know: 404, nothing changes.
   */
  pushResubscribe: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/push/resubscribe',
    auth: false,
    req: Strict({
      old_endpoint: Type.String({ minLength: 12, maxLength: 1024 }),
      endpoint: Type.String({ minLength: 12, maxLength: 1024 }),
      keys: Strict({ p256dh: B64Url(80, 96), auth: B64Url(20, 32) }),
    }),
  }),
  /** Removes one of the caller's devices (this one when it turns pushes off, or another). */
  pushUnsubscribe: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/push/unsubscribe',
    auth: true,
    req: Strict({ id: RowId }),
  }),
  pushPrefs: endpoint<PushPrefs>()({
    method: 'POST',
    path: '/stock/success/push/prefs',
    auth: true,
    req: Strict({
      kinds: Strict({
        alert: Type.Boolean(),
        order: Type.Boolean(),
        ipo: Type.Boolean(),
        payout: Type.Boolean(),
        chat: Type.Boolean(),
      }),
      amounts: Type.Boolean(),
      quiet: Type.Union([
        Type.Null(),
        Strict({ start: Time, end: Time, tz: Type.String({ minLength: 1, maxLength: 64 }) }),
      ]),
    }),
  }),
};
