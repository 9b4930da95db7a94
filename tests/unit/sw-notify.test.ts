import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { alertNotificationData, isAppPath } from '../../src/screens/_parts/watchlist/notify';

/**
 * A click on a fired-alert notification (public/sw-notify.js, imported by the generated service
 * worker): which route a notification's data leads to, and what the click does with the app's
 * windows. The script runs here in a context with a fake `self`, as the service worker runs it.
 */
const ORIGIN = 'https://bourse.example';
type Handler = (event: unknown) => void;
interface FakeWindow {
  url: string;
  focused: boolean;
  messages: unknown[];
  focus(): Promise<FakeWindow>;
  postMessage(message: unknown): void;
}

function loadWorker(windows: FakeWindow[]) {
  const handlers = new Map<string, Handler>();
  const opened: string[] = [];
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, h: Handler) => handlers.set(type, h),
    clients: {
      matchAll: async (options: unknown) => {
        expect(options).toEqual({ type: 'window', includeUncontrolled: true });
        return windows;
      },
      openWindow: async (url: string) => {
        opened.push(url);
        return null;
      },
    },
  };
  const code = fs.readFileSync(path.resolve(import.meta.dirname, '../../public/sw-notify.js'), 'utf8');
  vm.runInNewContext(code, { self, URL });
  const api = (self as unknown as { bourseNotify: { notificationPath(data: unknown): string } }).bourseNotify;
  /** Dispatches a click on a notification with `data`; resolves when the worker's work is done. */
  async function click(data: unknown) {
    let closed = false;
    let work: Promise<unknown> = Promise.resolve();
    handlers.get('notificationclick')!({
      notification: { data, close: () => (closed = true) },
      waitUntil: (p: Promise<unknown>) => (work = p),
    });
    await work;
    return closed;
  }
  return { api, click, opened };
}

function appWindow(url: string): FakeWindow {
  const w: FakeWindow = {
    url,
    focused: false,
    messages: [],
    async focus() {
      w.focused = true;
      return w;
    },
    postMessage(message) {
      w.messages.push(message);
    },
  };
  return w;
}

describe('alert notification data', () => {
  it("leads to the alert's instrument, the route the inbox opens", () => {
    const data = alertNotificationData({
      kind: 'alert',
      symbol: 'TCS.NS',
      params: { name: 'Tata Consultancy' },
    });
    expect(data).toEqual({ path: '/stock/v2/TCS.NS/Tata%20Consultancy' });
    expect(isAppPath(data.path)).toBe(true);
    expect(alertNotificationData({ kind: 'alert', symbol: 'EURINR=X', params: {} }).path).toBe(
      '/stock/v2/EURINR%3DX/EURINR%3DX',
    );
    // A security event of the account leads to Settings → Security.
    expect(alertNotificationData({ kind: 'security', symbol: '', params: { event: 'newDevice' } }).path).toBe(
      '/settings/security',
    );
  });

  it('maps data to a route of the app, anything else to the inbox (the worker and the app agree)', () => {
    const { api } = loadWorker([]);
    const local = ['/stock/v2/TCS.NS/Tata%20Consultancy', '/notifications', '/'];
    const foreign = [
      undefined,
      null,
      {},
      { path: 42 },
      { path: '' },
      { path: 'https://evil.example/x' },
      { path: '//evil.example/x' },
      { path: '/\\evil.example' },
      { path: 'javascript:alert(1)' },
      { path: '/stock/a b' },
      { path: `/${'a'.repeat(600)}` },
      { url: '/stock/v2/TCS.NS/TCS' },
    ];
    for (const p of local) {
      expect(api.notificationPath({ path: p })).toBe(p);
      expect(isAppPath(p)).toBe(true);
    }
    for (const data of foreign) {
      expect(api.notificationPath(data)).toBe('/notifications');
      expect(isAppPath((data as { path?: unknown } | null | undefined)?.path)).toBe(false);
    }
  });
});

describe('notification click', () => {
  it('closes the notification, focuses an open window of the app and sends it to the route', async () => {
    const other = appWindow('https://elsewhere.example/');
    const app = appWindow(`${ORIGIN}/markets`);
    const { click, opened } = loadWorker([other, app]);
    expect(await click({ path: '/stock/v2/TCS.NS/TCS' })).toBe(true);
    expect(app.focused).toBe(true);
    expect(app.messages).toEqual([{ type: 'bourse:navigate', path: '/stock/v2/TCS.NS/TCS' }]);
    expect(other.focused).toBe(false);
    expect(opened).toEqual([]);
  });

  it('sends the open window to the route even when the browser refuses to focus it', async () => {
    const app = appWindow(`${ORIGIN}/`);
    app.focus = () =>
      Promise.reject(new DOMException('Not allowed to focus a window.', 'InvalidAccessError'));
    const { click, opened } = loadWorker([app]);
    expect(await click({ path: '/records?order=S1' })).toBe(true);
    expect(app.messages).toEqual([{ type: 'bourse:navigate', path: '/records?order=S1' }]);
    expect(opened).toEqual([]);
  });

  it('opens a window at the route when none is open; at the inbox for foreign data', async () => {
    const { click, opened } = loadWorker([]);
    expect(await click({ path: '/stock/v2/AAPL/Apple' })).toBe(true);
    expect(await click({ path: 'https://evil.example/' })).toBe(true);
    expect(opened).toEqual([`${ORIGIN}/stock/v2/AAPL/Apple`, `${ORIGIN}/notifications`]);
  });
});
