import { call } from '../api/client';
import type { PushDevice } from '../shared/contract/push';
import { deviceName } from '../shared/device-name';
import { isStandalone } from './homeScreen';
import { isIos } from './ios';
import { keepDeviceId, setAppBadge, storedDeviceId } from './pushDevice';

/**
 * This device's Web Push subscription, on the browser's side: whether it can have one,
 * subscribing after the user's tap (the permission is asked then, never at start), turning it off,
 * and the app icon's badge. The server keeps the subscription (`pushSubscribe`) and sends to it; the
 * service worker shows what arrives (public/sw-push.js). On iOS and iPadOS, Web Push exists only
 * for an app added to the home screen: there the answer is the add-to-home-screen guide first.
 */
export type PushSupport = 'supported' | 'unsupported' | 'iosInstall';

/** A push service that never answers must not leave the button spinning. */
const SUBSCRIBE_TIMEOUT_MS = 20_000;

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined') return 'unsupported';
  if (isIos() && !isStandalone()) return 'iosInstall';
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
    ? 'supported'
    : 'unsupported';
}

/** The browser's permission for notifications ('default': not asked yet). */
export function notificationPermission(): NotificationPermission {
  return typeof Notification === 'undefined' ? 'denied' : Notification.permission;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** This browser's subscription, if it has one. */
export async function browserSubscription(): Promise<PushSubscription | null> {
  try {
    return (await (await registration())?.pushManager.getSubscription()) ?? null;
  } catch {
    return null;
  }
}

const keyBytes = (base64url: string) => {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms)),
  ]);
}

export type TurnOn = { ok: true; device: PushDevice } | { ok: false; reason: 'denied' | 'failed' | string };

/**
 * Turns notifications on for this device — call it from the user's tap: asks the permission, then
 * subscribes with the server's key and registers the subscription with the server (in the device's
 * language). A subscription made with another key (the server's changed) is replaced.
 */
export async function turnOn(publicKey: string, lang: string): Promise<TurnOn> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { ok: false, reason: 'denied' };
  try {
    const reg = await within(navigator.serviceWorker.ready, SUBSCRIBE_TIMEOUT_MS);
    const key = keyBytes(publicKey);
    let sub = await reg.pushManager.getSubscription();
    const same =
      sub?.options.applicationServerKey &&
      new Uint8Array(sub.options.applicationServerKey).every((b, i) => b === key[i]);
    if (sub && !same) {
      await sub.unsubscribe();
      sub = null;
    }
    sub ??= await within(
      reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
      SUBSCRIBE_TIMEOUT_MS,
    );
    const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
    const result = await call('pushSubscribe', {
      endpoint: json.endpoint,
      keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
      device: deviceName(navigator.userAgent),
      lang: (['en', 'zh', 'es', 'de'].includes(lang) ? lang : 'en') as 'en' | 'zh' | 'es' | 'de',
    });
    if (!result.ok) return { ok: false, reason: result.error };
    keepDeviceId(result.data.id);
    return { ok: true, device: result.data };
  } catch {
    return { ok: false, reason: 'failed' };
  }
}

/** Turns them off here: the browser's subscription ends (its push service then refuses sends) and the server forgets it. */
export async function turnOff(): Promise<boolean> {
  const id = storedDeviceId();
  if (id !== null) {
    const removed = await call('pushUnsubscribe', { id });
    if (!removed.ok && removed.error !== 'errors.notFound') return false;
  }
  await (await browserSubscription())?.unsubscribe().catch(() => false);
  keepDeviceId(null);
  return true;
}

/**
 * On logout: the browser's subscription ends, so nothing of this user reaches the device any more
 * (the server drops the subscription at its next send, which the push service answers 410).
 */
export async function forgetPush(): Promise<void> {
  setAppBadge(0);
  await (await browserSubscription())?.unsubscribe().catch(() => false);
  keepDeviceId(null);
}
