/*
 * Bourse: a push arriving at this device (issue 42). Imported by the generated sw.js
 * (vite.config.ts, workbox.importScripts) beside sw-notify.js; plain script, no build step.
 * The server sends each notice encrypted for this device (RFC 8291); the browser hands it here
 * decrypted, as JSON the server wrote (server/notify/sender.ts `PushPayload`): its title and body
 * in the device's language, the kind's tag, the in-app route a tap opens, the unread count. It is
 * shown from the payload alone, so a push arriving offline shows as it is. A newer notice of a
 * kind replaces the older one (its tag) and says how many arrived; the app icon's badge becomes
 * the unread count. A tap is sw-notify.js's: it opens `data.path`. When the browser replaces the
 * subscription, the worker subscribes again and tells the server (`pushsubscriptionchange`).
 */
((sw) => {
  const ICON = '/icons/icon-192.png';
  const TITLE = 'Bourse';

  /** The payload as the server wrote it, or null for anything else (never trusted further). */
  function parsePush(data) {
    let p = null;
    try {
      p = data ? data.json() : null;
    } catch {
      return null;
    }
    if (!p || typeof p !== 'object' || p.v !== 1) return null;
    const text = (v, max) => (typeof v === 'string' ? v.slice(0, max) : '');
    const tag = text(p.tag, 64);
    return {
      id: Number.isSafeInteger(p.id) ? p.id : 0,
      kind: text(p.kind, 32),
      tag: /^bourse-[a-z]+$/.test(tag) ? tag : 'bourse',
      title: text(p.title, 200) || TITLE,
      body: text(p.body, 500),
      path: text(p.path, 512),
      at: Number.isFinite(p.at) ? p.at : Date.now(),
      badge: Number.isSafeInteger(p.badge) && p.badge >= 0 ? p.badge : null,
    };
  }

  /** Shows a push: one notification per kind, the newest on top, counting those it replaced. */
  async function showPush(push) {
    if (!push) {
      // A push must show something (userVisibleOnly): the inbox has whatever it was.
      await sw.registration.showNotification(TITLE, {
        tag: 'bourse',
        icon: ICON,
        data: { path: '/notifications' },
      });
      return;
    }
    const shown = await sw.registration.getNotifications({ tag: push.tag });
    const before = shown.length > 0 && shown[0].data ? Number(shown[0].data.count) || 1 : 0;
    const count = before + 1;
    await sw.registration.showNotification(push.title, {
      body: count > 1 ? `${push.body} (+${count - 1})` : push.body,
      tag: push.tag,
      renotify: before > 0,
      icon: ICON,
      badge: ICON,
      timestamp: push.at,
      data: { path: push.path, kind: push.kind, id: push.id, count },
    });
    const nav = sw.navigator;
    if (push.badge !== null && nav?.setAppBadge) {
      await (push.badge > 0 ? nav.setAppBadge(push.badge) : nav.clearAppBadge()).catch(() => {});
    }
  }

  const KEY_URL = '/stock/success/push/key';
  const RESUBSCRIBE_URL = '/stock/success/push/resubscribe';

  const keyBytes = (base64url) => {
    const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
    const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  };

  const sameKey = (sub, key) => {
    const own = sub?.options?.applicationServerKey;
    if (!own) return false;
    const bytes = new Uint8Array(own);
    return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
  };

  /**
   * The browser replaced this device's subscription (it expired, or the push service renewed it):
   * without a new one, pushes stop arriving here. Subscribes again with the server's current key
   * (the browser's new subscription when it made one with that key) and, when the browser says
   * which subscription it replaced, tells the server, which moves the device to the new endpoint.
   * The worker holds no session: the old endpoint, which only the browser and the server know, is
   * the proof. Without it the new subscription waits for the app, which registers it when
   * notifications are next turned on. Answers the new subscription (null when none was made).
   */
  async function resubscribe(oldSub, newSub) {
    const answer = await sw.fetch(KEY_URL, { credentials: 'omit' });
    const key = answer.ok ? (await answer.json())?.data?.public_key : null;
    if (typeof key !== 'string' || key.length === 0) return null;
    const bytes = keyBytes(key);
    let sub = newSub && sameKey(newSub, bytes) ? newSub : null;
    if (!sub) {
      if (newSub) await newSub.unsubscribe().catch(() => false);
      sub = await sw.registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes,
      });
    }
    const old = oldSub && typeof oldSub.endpoint === 'string' ? oldSub.endpoint : null;
    if (old) {
      const json = sub.toJSON();
      await sw.fetch(RESUBSCRIBE_URL, {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          old_endpoint: old,
          endpoint: json.endpoint,
          keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
        }),
      });
    }
    return sub;
  }

  sw.boursePush = { parsePush, showPush, resubscribe };

  sw.addEventListener('pushsubscriptionchange', (event) => {
    event.waitUntil(
      resubscribe(event.oldSubscription || null, event.newSubscription || null).catch(() => null),
    );
  });

  sw.addEventListener('push', (event) => {
    event.waitUntil(showPush(parsePush(event.data)));
  });
})(self);
