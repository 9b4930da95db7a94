/*
 * Bourse: what a click on a fired-alert notification does. Imported by the generated sw.js
 * (vite.config.ts, workbox.importScripts); plain script, no build step. The app shows each alert
 * with `data.path`, the in-app route of the alert's instrument (src/screens/_parts/watchlist/notify.ts).
 * A click closes the notification and brings the app to that route: an open window of the app is
 * focused and told where to go (the app navigates in place, src/shell/AppShell.tsx); without one,
 * a window is opened there. Anything but a same-origin path leads to the inbox instead.
 */
((sw) => {
  const INBOX = '/notifications';

  /** The in-app path a notification's data leads to: its own path when it is a plain local route. */
  function notificationPath(data) {
    const path = data && typeof data.path === 'string' ? data.path : '';
    // A local route: one leading slash, no scheme-relative `//host` or `/\host`, no control characters.
    if (!/^\/(?![/\\])[^\s\\]*$/.test(path) || path.length > 512) return INBOX;
    return path;
  }

  /** Focuses a window of the app and sends it to `path`, or opens one there. */
  async function openAt(clients, origin, path) {
    const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((c) => {
      try {
        return new URL(c.url).origin === origin;
      } catch {
        return false;
      }
    });
    if (open) {
      // Focusing needs the tap's activation, which the handler may outlive on a busy phone (the
      // browser then refuses it): the window is told where to go all the same.
      const focused = (await open.focus().catch(() => null)) || open;
      focused.postMessage({ type: 'bourse:navigate', path });
      return focused;
    }
    return clients.openWindow(new URL(path, origin).href);
  }

  sw.bourseNotify = { notificationPath, openAt };

  sw.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = notificationPath(event.notification.data);
    event.waitUntil(openAt(sw.clients, sw.location.origin, path));
  });
})(self);
