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

/** Shows one notification when allowed; false when it could not (no permission, no worker). */
export async function showSystemNotification(title: string, body: string, tag: string): Promise<boolean> {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return false;
  if (!('serviceWorker' in navigator)) return false;
  const reg = await navigator.serviceWorker.getRegistration();
  if (!reg) return false;
  try {
    await reg.showNotification(title, { body, tag, icon: '/icons/icon-192.png' });
    return true;
  } catch {
    return false;
  }
}
