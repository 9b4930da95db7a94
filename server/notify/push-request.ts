import { createRequire } from 'node:module';
import type { NoticeKind } from '#shared/notices';
import type { Deps } from '../deps';
import type { VapidKeys } from './vapid';

/**
 * One Web Push request (sender.ts decides what and when): the payload encrypted for the
 * subscription (RFC 8291, aes128gcm), the push service's VAPID JWT (RFC 8292), POSTed with a timeout.
 */

const SEND_TIMEOUT_MS = 10_000;
/** How long a push service keeps a push for an unreachable device: an alert is stale sooner. */
const TTL_S: Partial<Record<NoticeKind, number>> = { alert: 3600 };
const DEFAULT_TTL_S = 24 * 3600;

/** What a device receives (the service worker shows it as it is: public/sw-push.js). */
export interface PushPayload {
  v: 1;
  /** The outbox row: one notice, whatever the device. */
  id: number;
  kind: NoticeKind;
  tag: string;
  title: string;
  body: string;
  /** The in-app route a tap opens. */
  path: string;
  /** When it happened (server time, ms). */
  at: number;
  /** The user's unread inbox items when it was sent: the app icon's badge. */
  badge: number;
}

/**
 * web-push is loaded with the first push sent, not with the server: a start (and each run of the
 * operator's console) paid for loading it whether or not anyone had a subscription.
 */
const load = createRequire(import.meta.url);
let webpushLib: typeof import('web-push') | null = null;
const webpush = () => (webpushLib ??= load('web-push') as typeof import('web-push'));

/** A VAPID header per push service (its origin), signed once and reused for an hour of its 12. */
const vapidHeaders = new Map<string, { value: string; until: number }>();

function authorization(deps: Deps, keys: VapidKeys, endpoint: string): string {
  const audience = new URL(endpoint).origin;
  const key = `${keys.publicKey}|${audience}`;
  const known = vapidHeaders.get(key);
  // The JWT's expiry is the real time's: push services check it against theirs, not the server's clock.
  const wall = Date.now();
  if (known && known.until > wall) return known.value;
  const exp = Math.floor(wall / 1000) + 12 * 3600;
  const headers = webpush().getVapidHeaders(
    audience,
    deps.config.push.subject,
    keys.publicKey,
    keys.privateKey,
    'aes128gcm',
    exp,
  );
  const value = String(headers.Authorization);
  vapidHeaders.set(key, { value, until: wall + 3600_000 });
  return value;
}

/** One push request: the push service's HTTP status (0: no answer — network, timeout). */
export async function pushRequest(
  deps: Deps,
  keys: VapidKeys,
  w: { endpoint: string; p256dh: string; auth: string; kind: NoticeKind },
  payload: PushPayload,
): Promise<{ http: number; retryAfterMs: number }> {
  try {
    const request = webpush().generateRequestDetails(
      { endpoint: w.endpoint, keys: { p256dh: w.p256dh, auth: w.auth } },
      JSON.stringify(payload),
      {
        TTL: TTL_S[w.kind] ?? DEFAULT_TTL_S,
        urgency: w.kind === 'chat' || w.kind === 'ipo' ? 'normal' : 'high',
        headers: { Authorization: authorization(deps, keys, w.endpoint) },
      },
    );
    const res = await fetch(w.endpoint, {
      method: 'POST',
      // fetch counts the body's length itself.
      headers: Object.fromEntries(
        Object.entries(request.headers)
          .filter(([k]) => k.toLowerCase() !== 'content-length')
          .map(([k, v]) => [k, String(v)]),
      ),
      body: request.body ? new Uint8Array(request.body) : undefined,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      redirect: 'error',
    });
    // The answer's body is never needed: read it so the connection goes back to the pool.
    await res.arrayBuffer().catch(() => undefined);
    const after = Number(res.headers.get('retry-after'));
    return { http: res.status, retryAfterMs: Number.isFinite(after) && after > 0 ? after * 1000 : 0 };
  } catch {
    return { http: 0, retryAfterMs: 0 };
  }
}
