import type { NotificationRow } from '../../../shared/contract/watchlist';
import { noticePath } from '../../../shared/notices';

export { isAppPath } from '../../../paths';

/**
 * System notifications for fired alerts, shown through the service worker (the one way a
 * notification shows on an installed PWA and on Android). Permission is asked when the user makes
 * their first alert — never at start — and only once: a refusal is the user's answer.
 */
export async function askNotificationPermission(): Promise<void> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  try {
    await Notification.requestPermission();
  } catch {
    // An old browser's callback form, or a blocked prompt: the inbox still has every alert.
  }
}

/** What a fired alert's notification carries: the in-app route a click on it opens (public/sw-notify.js). */
export interface AlertNotificationData {
  path: string;
}

/** The alert's instrument, as the inbox opens it. */
export function alertNotificationData(
  n: Pick<NotificationRow, 'kind' | 'symbol' | 'params'>,
): AlertNotificationData {
  return { path: inboxPath(n) };
}

/**
 * Where an inbox item leads: the instrument of a fired alert, the order, the IPO orders, the
 * withdrawals, Settings → Security (src/shared/notices.ts, what a push's tap opens too).
 */
export function inboxPath(n: Pick<NotificationRow, 'kind' | 'symbol' | 'params'>): string {
  return noticePath(n);
}

/** Shows one notification when allowed; false when it could not (no permission, no worker). */
export async function showSystemNotification(
  title: string,
  body: string,
  tag: string,
  data?: AlertNotificationData,
): Promise<boolean> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  if (!('serviceWorker' in navigator)) return false;
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg) return false;
  try {
    await reg.showNotification(title, { body, tag, icon: '/icons/icon-192.png', data });
    return true;
  } catch {
    return false;
  }
}
