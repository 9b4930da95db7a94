import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { decryptPush, newDevice, type PushService, startPushService } from '../tests/support/push';
import { expect, test, type WorkerServer } from './fixtures';
import { advanceServerClockTo, expectAccessible, fundedUserViaApi, login, newPhone, snap } from './support';

/**
 * Web Push end to end in Chromium: a user turns notifications on in Settings →
 * Notifications (the permission granted by the context), an after-market order of theirs fills at
 * the open, the server encrypts the notice for this device and sends it to its push service, the
 * service worker shows it, and a tap on it opens the order's contract note.
 *
 * Headless Chromium has no push service: `PushManager.subscribe` is given a stand-in that answers a
 * subscription on a push service of this journey's own (tests/support/push.ts, on 127.0.0.1, which
 * the e2e servers accept with PUSH_LOOPBACK — production refuses it), with a key pair made here. That
 * service decrypts what the server sent with the device's private key, and the plaintext is handed
 * to the real service worker as the browser would (DevTools' ServiceWorker.deliverPushMessage).
 * Headless Chromium has no notification to tap either: the tap is the `notificationclick` event
 * dispatched in the service worker on the notification it shows.
 */
const PASSWORD = 'secret123';

let server: WorkerServer;
let api: APIRequestContext;
let service: PushService;

// A push reaches the service worker.
test.use({ ownServer: 'push', serviceWorkers: 'allow' });

test.beforeAll(async ({ playwright, server: own }) => {
  server = own;
  api = await playwright.request.newContext({ baseURL: server.url });
  service = await startPushService();
});
test.afterAll(async () => {
  await api?.dispose();
  await service?.close();
});

/**
 * The browser's push subscription, as a push service would give it: `endpoint` and the device's
 * public keys; kept in localStorage so it outlives a reload, as a real one does.
 */
async function standInPushManager(
  context: BrowserContext,
  sub: { endpoint: string; keys: { p256dh: string; auth: string } },
) {
  await context.addInitScript((given) => {
    const KEY = 'e2e.push.subscription';
    const make = (stored: {
      endpoint: string;
      keys: { p256dh: string; auth: string };
      server: number[];
    }) => ({
      endpoint: stored.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(stored.server).buffer },
      getKey: () => null,
      toJSON: () => ({ endpoint: stored.endpoint, expirationTime: null, keys: stored.keys }),
      unsubscribe: async () => {
        localStorage.removeItem(KEY);
        return true;
      },
    });
    const stored = () => {
      const raw = localStorage.getItem(KEY);
      return raw ? JSON.parse(raw) : null;
    };
    PushManager.prototype.getSubscription = async function getSubscription() {
      const s = stored();
      return s ? (make(s) as unknown as PushSubscription) : null;
    };
    PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey;
      const bytes =
        key instanceof ArrayBuffer
          ? new Uint8Array(key)
          : ArrayBuffer.isView(key)
            ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength)
            : new Uint8Array();
      const s = { endpoint: given.endpoint, keys: given.keys, server: [...bytes] };
      localStorage.setItem(KEY, JSON.stringify(s));
      return make(s) as unknown as PushSubscription;
    };
  }, sub);
}

/** Which of RELIANCE (NSE) and AAPL (NYSE) is closed now by the server's clock, and when it opens. */
async function closedMarket() {
  const markets = [
    { symbol: 'RELIANCE.NS', code: 'RELIANCE' },
    { symbol: 'AAPL', code: 'AAPL' },
  ];
  for (const m of markets) {
    const session = (await (await api.get(`/api/v2/depth?symbol=${m.symbol}`)).json()).data.session as {
      open: boolean;
      opens_at: number | null;
    };
    if (!session.open && session.opens_at) return { ...m, opensAt: session.opens_at };
  }
  throw new Error('NSE and NYSE are never open at once');
}

/**
 * Hands `data` to the app's service worker as a push from its push service (DevTools' own "Push",
 * on the session that names the registration).
 */
async function deliverPush(page: Page, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const reg = registrations.find((r) => !r.isDeleted && new URL(r.scopeURL).origin === server.url);
      if (reg) resolve(reg.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: server.url,
    registrationId: await registrationId,
    data,
  });
  await cdp.detach();
}

test('notifications on from Settings; a fill at the open arrives as a push, shows, and its tap opens the order', async ({
  page,
  context,
}) => {
  const device = newDevice(`${service.url}/device/e2e-${Date.now()}`);
  await standInPushManager(context, { endpoint: device.endpoint, keys: device.keys });
  await context.grantPermissions(['notifications'], { origin: server.url });

  const phone = newPhone();
  const token = await fundedUserViaApi(api, phone, PASSWORD, 100_000);
  await login(page, phone, PASSWORD);
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state), {
      timeout: 30_000,
    })
    .toBe('activated');

  // Settings → Notifications: the preview of what will arrive, then the tap that subscribes.
  await page.goto('/settings/notifications');
  const thisDevice = page.getByRole('region', { name: 'This device' });
  await expect(thisDevice.getByRole('figure', { name: 'Preview' })).toContainText('Order filled · RELIANCE');
  await expectAccessible(page);
  await snap(page, 'push-settings', { fullPage: true });
  await thisDevice.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(thisDevice.getByTestId('push-on')).toHaveText('On for this device');
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices).toContainText('This device');
  await expect(devices).toContainText('Not notified yet');
  await snap(page, 'push-on', { fullPage: true });

  // An after-market order, placed from another device, fills at its market's open.
  const m = await closedMarket();
  const quote = (await (await api.get(`/api/v2/quote?symbol=${m.symbol}`)).json()).data;
  const placed = await api.post('/api/stock/success/deal/buy', {
    headers: { token, 'idempotency-key': `push-${phone}` },
    data: { tag: m.symbol, count: 1, price: quote.price, mold: 'stock' },
  });
  const order = (await placed.json()).data as { no: string; status: number };
  expect(order.status, 'pending until the open').toBe(0);
  const before = service.received.length;
  await advanceServerClockTo(api, m.opensAt + 60_000, m.symbol);

  // The server's push, as the push service received it: for this device, encrypted for its key.
  await service.waitFor(before + 1, 60_000);
  const got = service.received.slice(before).find((r) => r.path === new URL(device.endpoint).pathname)!;
  expect(got.headers['content-encoding']).toBe('aes128gcm');
  const payload = decryptPush(device, got.body);
  expect(JSON.parse(payload)).toMatchObject({
    kind: 'order',
    tag: 'bourse-order',
    title: `Order filled · ${m.code}`,
    path: `/records?order=${order.no}`,
  });

  // The browser hands it to the service worker, which shows it.
  await deliverPush(page, payload);
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        tag: n.tag,
        body: n.body,
        path: (n.data as { path?: string } | null)?.path ?? null,
      })),
    );
  await expect.poll(shown).toEqual([
    {
      title: `Order filled · ${m.code}`,
      tag: 'bourse-order',
      body: 'Tap to see the order.',
      path: `/records?order=${order.no}`,
    },
  ]);

  // A tap on it: the app goes to the order's contract note.
  await page.goto('/');
  const [worker] = context.serviceWorkers();
  await worker!.evaluate(async () => {
    // The service worker's scope, typed as much as this needs (the page's DOM types have no
    // ServiceWorkerGlobalScope nor NotificationEvent).
    const sw = self as unknown as {
      registration: ServiceWorkerRegistration;
      dispatchEvent(e: Event): boolean;
      NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
    };
    const [notification] = await sw.registration.getNotifications({ tag: 'bourse-order' });
    sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification: notification! }));
  });
  await expect(page).toHaveURL(new RegExp(`/records\\?order=${order.no}$`));
  await expect(page.getByRole('dialog', { name: 'Contract note' })).toBeVisible();
  await snap(page, 'push-opened-order');
  await expect.poll(shown).toEqual([]);

  // The screen in German at 320 px, for the team to look at (E2E_SCREENS).
  if (process.env.E2E_SCREENS) {
    await page.evaluate(() => localStorage.setItem('bourse.language', 'de'));
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/settings/notifications');
    await expect(page.getByTestId('push-on')).toBeVisible();
    await snap(page, 'push-on-de-320', { fullPage: true });
  }
});
