import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PushSettings } from '#shared/contract/push';
import { initI18n } from '../../src/i18n/index';
import NotificationSettingsScreen from '../../src/screens/NotificationSettings/NotificationSettingsScreen';
import { useUi } from '../../src/store/ui';
import { fake } from '../support/fake-worker';

/*
 * Settings → Notifications: where the browser has no Web Push the device says "not
 * supported here" (never an error) and the preferences still apply to the other devices; the
 * permission is asked only from the "Turn on" tap, after the preview, and the subscription the
 * browser makes is handed to the server; a refused permission says how to allow it.
 */

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
let watched: PushSettings | undefined;
const reload = vi.fn();
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return { useWatch: () => watchResult(watched, { reload }) };
});

const KEY = `B${'A'.repeat(86)}`;
const settings = (over: Partial<PushSettings> = {}): PushSettings => ({
  public_key: KEY,
  prefs: {
    kinds: { alert: true, order: true, ipo: true, payout: true, chat: true },
    amounts: false,
    quiet: null,
  },
  devices: [],
  max_devices: 10,
  ...over,
});

/** A browser with Web Push: its permission, and the subscription its push service makes. */
function browserWithPush(permission: NotificationPermission) {
  const requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
  const subscription = {
    endpoint: 'https://fcm.googleapis.com/fcm/send/dom-test',
    options: { applicationServerKey: null },
    toJSON: () => ({
      endpoint: 'https://fcm.googleapis.com/fcm/send/dom-test',
      keys: { p256dh: KEY, auth: 'A'.repeat(22) },
    }),
    unsubscribe: async () => true,
  };
  let current: typeof subscription | null = null;
  const subscribe = vi.fn(async () => {
    current = subscription;
    return subscription;
  });
  const registration = { pushManager: { getSubscription: async () => current, subscribe } };
  vi.stubGlobal('Notification', Object.assign(class {}, { permission, requestPermission }));
  vi.stubGlobal('PushManager', class {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
  });
  return { requestPermission, subscribe };
}

function show(data: PushSettings) {
  watched = data;
  return render(
    <MemoryRouter>
      <NotificationSettingsScreen />
    </MemoryRouter>,
  );
}
const calls = () => fake.calls.map(({ name, input }) => ({ name, input }));

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  fake.reset();
  reload.mockClear();
  localStorage.clear();
  useUi.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('notification settings', () => {
  it('says "not supported here" where the browser has no push, and the preferences still save', async () => {
    vi.stubGlobal('PushManager', undefined);
    show(settings());
    expect((await screen.findByTestId('push-unsupported')).textContent).toMatch(/aren't supported here/);
    expect(screen.queryByRole('button', { name: 'Turn on notifications' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('switch', { name: 'Customer service replies' })));
    expect(calls()).toEqual([
      {
        name: 'pushPrefs',
        input: {
          kinds: { alert: true, order: true, ipo: true, payout: true, chat: false },
          amounts: false,
          quiet: null,
        },
      },
    ]);
  });

  it('asks the permission only at the tap, after a preview without amounts, and registers the subscription', async () => {
    const browser = browserWithPush('default');
    show(settings());
    const turnOn = await screen.findByRole('button', { name: 'Turn on notifications' });
    expect(screen.getAllByText('Order filled · RELIANCE').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Tap to see the order.').length).toBeGreaterThan(0);
    expect(browser.requestPermission).not.toHaveBeenCalled();
    fake.answers.push({
      ok: true,
      data: { id: 7, device: 'Chrome on Android', created_at: 1, last_success_at: null },
    });
    await act(async () => fireEvent.click(turnOn));
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(browser.subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    expect(calls()).toEqual([
      {
        name: 'pushSubscribe',
        input: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/dom-test',
          keys: { p256dh: KEY, auth: 'A'.repeat(22) },
          device: expect.any(String),
          lang: 'en',
        },
      },
    ]);
    expect(await screen.findByTestId('push-on')).toBeTruthy();
    expect(localStorage.getItem('bourse.push.device')).toBe('7');
  });

  it('a refused permission says how to allow it; amounts shown only when chosen', async () => {
    browserWithPush('denied');
    show(settings({ prefs: { ...settings().prefs, amounts: true } }));
    expect(await screen.findByText(/blocked for Bourse/)).toBeTruthy();
    expect(screen.getByText('Bought 10 at ₹2,440.00')).toBeTruthy();
    expect(screen.getByRole('switch', { name: /Show amounts on the lock screen/ })).toHaveProperty(
      'checked',
      true,
    );
  });
});
