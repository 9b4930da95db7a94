import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * A push arriving at the device (public/sw-push.js, imported by the generated service worker): the
 * payload the server wrote is shown as it is — offline too, it needs nothing else — one
 * notification per kind (a newer one replaces the older and counts it), the app icon's badge set
 * to the unread count; anything that is not the server's payload still shows something (a push
 * must), leading to the inbox. The script runs here with a fake `self`, as the service worker runs it.
 */
interface Shown {
  title: string;
  options: { body?: string; tag: string; renotify?: boolean; data: Record<string, unknown> };
}

function loadWorker() {
  const handlers = new Map<string, (event: unknown) => void>();
  const shown: Shown[] = [];
  const badges: Array<number | null> = [];
  const requests: Array<{ url: string; init?: { method?: string; body?: string; credentials?: string } }> =
    [];
  const subscribed: Array<{ userVisibleOnly: boolean; applicationServerKey: Uint8Array }> = [];
  const self = {
    addEventListener: (type: string, h: (event: unknown) => void) => handlers.set(type, h),
    fetch: async (url: string, init?: { method?: string; body?: string; credentials?: string }) => {
      requests.push({ url, init });
      if (url === '/stock/success/push/key')
        return { ok: true, json: async () => ({ msg: 'ok', data: { public_key: SERVER_KEY } }) };
      return { ok: true, json: async () => ({ msg: 'ok', data: null }) };
    },
    navigator: {
      setAppBadge: async (n: number) => void badges.push(n),
      clearAppBadge: async () => void badges.push(null),
    },
    registration: {
      showNotification: async (title: string, options: Shown['options']) => {
        const same = shown.findIndex((n) => n.options.tag === options.tag);
        if (same >= 0) shown.splice(same, 1);
        shown.push({ title, options });
      },
      getNotifications: async ({ tag }: { tag: string }) =>
        shown.filter((n) => n.options.tag === tag).map((n) => ({ data: n.options.data })),
      pushManager: {
        subscribe: async (options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) => {
          subscribed.push(options);
          return fakeSubscription(
            'https://fcm.googleapis.com/fcm/send/renewed',
            options.applicationServerKey,
          );
        },
      },
    },
  };
  vm.runInNewContext(fs.readFileSync(path.resolve(import.meta.dirname, '../../public/sw-push.js'), 'utf8'), {
    self,
    atob,
    Uint8Array,
  });
  /** The browser replaced the subscription; resolves once the worker is done with the event. */
  async function subscriptionChanged(oldSubscription: unknown, newSubscription: unknown) {
    let work: Promise<unknown> = Promise.resolve();
    handlers.get('pushsubscriptionchange')!({
      oldSubscription,
      newSubscription,
      waitUntil: (p: Promise<unknown>) => (work = p),
    });
    await work;
  }
  async function push(payload: unknown) {
    let work: Promise<unknown> = Promise.resolve();
    handlers.get('push')!({
      data:
        payload === undefined
          ? null
          : {
              json: () => (typeof payload === 'string' ? JSON.parse(payload) : payload),
            },
      waitUntil: (p: Promise<unknown>) => (work = p),
    });
    await work;
  }
  return { push, shown, badges, subscriptionChanged, requests, subscribed };
}

/** The server's VAPID public key (an uncompressed P-256 point, base64url) and its bytes. */
const SERVER_KEY_BYTES = Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i));
const SERVER_KEY = Buffer.from(SERVER_KEY_BYTES).toString('base64url');

/** A PushSubscription as the browser hands it over. */
function fakeSubscription(endpoint: string, key: Uint8Array | null) {
  const sub = {
    endpoint,
    options: { applicationServerKey: key ? key.buffer : null },
    unsubscribed: false,
    unsubscribe: async () => {
      sub.unsubscribed = true;
      return true;
    },
    toJSON: () => ({
      endpoint,
      keys: { p256dh: `p256dh-of-${endpoint.split('/').pop()}`, auth: 'auth-secret' },
    }),
  };
  return sub;
}

const fill = {
  v: 1,
  id: 41,
  kind: 'order',
  tag: 'bourse-order',
  title: 'Order filled · RELIANCE',
  body: 'Tap to see the order.',
  path: '/records?order=S1',
  at: 1_764_000_000_000,
  badge: 3,
};

describe('a push arriving', () => {
  it("is shown from its payload, with the route a tap opens, and the unread count on the app's badge", async () => {
    const w = loadWorker();
    await w.push(fill);
    expect(w.shown).toEqual([
      {
        title: 'Order filled · RELIANCE',
        options: expect.objectContaining({
          body: 'Tap to see the order.',
          tag: 'bourse-order',
          renotify: false,
          data: { path: '/records?order=S1', kind: 'order', id: 41, count: 1 },
        }),
      },
    ]);
    expect(w.badges).toEqual([3]);
  });

  it('replaces the older notice of its kind and counts it; other kinds stay apart', async () => {
    const w = loadWorker();
    await w.push(fill);
    await w.push({ ...fill, id: 42, title: 'Order filled · TCS', path: '/records?order=S2', badge: 4 });
    await w.push({
      ...fill,
      id: 43,
      kind: 'alert',
      tag: 'bourse-alert',
      title: 'Price alert · INFY',
      badge: 0,
    });
    expect(w.shown.map((n) => [n.title, n.options.body, n.options.renotify])).toEqual([
      ['Order filled · TCS', 'Tap to see the order. (+1)', true],
      ['Price alert · INFY', 'Tap to see the order.', false],
    ]);
    expect(w.badges).toEqual([3, 4, null]);
  });

  it('anything but the server’s payload still shows, leading to the inbox, and sets no badge', async () => {
    for (const payload of [
      undefined,
      'not json',
      { v: 2, title: 'x' },
      { ...fill, tag: 'evil tag', badge: -1 },
    ]) {
      const w = loadWorker();
      await w.push(payload);
      expect(w.shown).toHaveLength(1);
      expect(w.badges).toEqual([]);
      if (payload && typeof payload === 'object' && 'tag' in payload)
        expect(w.shown[0]?.options.tag).toBe('bourse');
      else
        expect(w.shown[0]).toMatchObject({ title: 'Bourse', options: { data: { path: '/notifications' } } });
    }
  });
});

describe('the browser replacing the subscription', () => {
  const posted = (w: ReturnType<typeof loadWorker>) =>
    w.requests
      .filter((r) => r.url === '/stock/success/push/resubscribe')
      .map((r) => ({
        method: r.init?.method,
        credentials: r.init?.credentials,
        body: JSON.parse(r.init!.body!),
      }));

  it('subscribes again with the server’s key and moves the old subscription to the new one', async () => {
    const w = loadWorker();
    await w.subscriptionChanged(
      fakeSubscription('https://fcm.googleapis.com/fcm/send/expired', SERVER_KEY_BYTES),
      null,
    );
    expect(w.subscribed).toHaveLength(1);
    expect(w.subscribed[0]!.userVisibleOnly).toBe(true);
    expect([...w.subscribed[0]!.applicationServerKey]).toEqual([...SERVER_KEY_BYTES]);
    expect(posted(w)).toEqual([
      {
        method: 'POST',
        // No session travels from the worker: the old endpoint is the proof.
        credentials: 'omit',
        body: {
          old_endpoint: 'https://fcm.googleapis.com/fcm/send/expired',
          endpoint: 'https://fcm.googleapis.com/fcm/send/renewed',
          keys: { p256dh: 'p256dh-of-renewed', auth: 'auth-secret' },
        },
      },
    ]);
  });

  it('keeps a new subscription the browser made with the server’s key; one made with another key is replaced', async () => {
    const w = loadWorker();
    const fresh = fakeSubscription('https://fcm.googleapis.com/fcm/send/by-browser', SERVER_KEY_BYTES);
    await w.subscriptionChanged(
      fakeSubscription('https://fcm.googleapis.com/fcm/send/old', SERVER_KEY_BYTES),
      fresh,
    );
    expect(w.subscribed).toEqual([]);
    expect(posted(w).map((p) => p.body.endpoint)).toEqual(['https://fcm.googleapis.com/fcm/send/by-browser']);

    const other = loadWorker();
    const stale = fakeSubscription(
      'https://fcm.googleapis.com/fcm/send/other-key',
      new Uint8Array(65).fill(9),
    );
    await other.subscriptionChanged(fakeSubscription('https://fcm.googleapis.com/fcm/send/old', null), stale);
    expect(stale.unsubscribed).toBe(true);
    expect(other.subscribed).toHaveLength(1);
    expect(posted(other).map((p) => [p.body.old_endpoint, p.body.endpoint])).toEqual([
      ['https://fcm.googleapis.com/fcm/send/old', 'https://fcm.googleapis.com/fcm/send/renewed'],
    ]);
  });

  it('without the old subscription it subscribes again but claims no device on the server', async () => {
    const w = loadWorker();
    await w.subscriptionChanged(null, null);
    expect(w.subscribed).toHaveLength(1);
    expect(w.requests.map((r) => r.url)).toEqual(['/stock/success/push/key']);
  });
});
