import { act, cleanup, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { registerDeviceWipe } from '../../src/shell/device';
import { InboxWatcher } from '../../src/shell/Inbox';
import { DEVICE_KEY } from '../../src/shell/pushDevice';
import { endSession } from '../../src/shell/session';
import { useSession } from '../../src/store/session';
import { useUi } from '../../src/store/ui';
import { fake } from '../support/fake-worker';

/** The inbox watcher (fired alerts while the app is open) across a logout and another user's login. */
let unread: { unread_count: number; latest_id: number } | undefined;
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return { useWatch: () => watchResult(unread, { source: unread ? 'network' : null }) };
});
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

const row = (id: number, name: string) => ({
  id,
  kind: 'alert',
  symbol: 'TCS.NS',
  params: { name, kind: 'above', value: 100, price: 101, change: 1, decimals: 2 },
  created_at: 1,
  read: false,
});

/** The server's answers when the inbox's first page holds `item`. */
const inboxHolds = (item: ReturnType<typeof row>) => (name: string) =>
  name === 'notificationList'
    ? { ok: true as const, data: { rows: [item], count: 1, unread: 1 } }
    : { ok: true as const, data: null };

beforeAll(async () => {
  await initI18n();
  registerDeviceWipe();
});
beforeEach(() => {
  fake.reset();
  unread = undefined;
  useUi.setState({ toasts: [] });
});
afterEach(cleanup);

const watcher = () => (
  <MemoryRouter>
    <InboxWatcher />
  </MemoryRouter>
);

describe('InboxWatcher across users', () => {
  it('measures the next user of the device against their own inbox after a logout', async () => {
    useSession.setState({ token: 'a', userInfo: { id: 1, user: '9876543210', login: 1 } });
    const view = render(watcher());
    // User A's inbox: its newest item (50) is where news starts for A, not news itself.
    unread = { unread_count: 3, latest_id: 50 };
    view.rerender(watcher());
    expect(useUi.getState().toasts).toEqual([]);

    // A logs out on this device (the watcher may stay mounted), B signs in.
    await act(() => endSession());
    useSession.setState({ token: 'b', userInfo: { id: 2, user: '9876543211', login: 1 } });
    unread = { unread_count: 1, latest_id: 7 };
    view.rerender(watcher());
    expect(useUi.getState().toasts).toEqual([]);
    expect(fake.calls.filter((c) => c.name === 'notificationList')).toEqual([]);

    // B's next alert (8) is news for B, though it is older than A's newest (50).
    fake.respond = inboxHolds(row(8, 'Tata Consultancy'));
    unread = { unread_count: 2, latest_id: 8 };
    await act(async () => view.rerender(watcher()));
    const toasts = useUi.getState().toasts;
    expect(toasts).toHaveLength(1);
    expect(toasts[0]!.params).toMatchObject({ name: 'Tata Consultancy' });
  });
});

/** The shell's listener alone (AppShell calls it), as loaded by the test. */
function Clicks({ listen }: { listen: () => void }) {
  listen();
  return null;
}

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

describe('a click on an alert notification', () => {
  it('goes to the route the service worker sends, and to nothing outside the app', async () => {
    const sw = new EventTarget();
    Object.defineProperty(navigator, 'serviceWorker', { value: sw, configurable: true });
    // The listener starts with its module: loaded anew, with this worker there.
    vi.resetModules();
    const { useNotificationClicks } = await import('../../src/shell/notificationClicks');

    useSession.setState({ token: 'a', userInfo: { id: 1, user: '9876543210', login: 1 } });
    const view = render(
      <MemoryRouter initialEntries={['/markets']}>
        <Clicks listen={useNotificationClicks} />
        <Where />
      </MemoryRouter>,
    );
    const send = (data: unknown) => act(() => void sw.dispatchEvent(new MessageEvent('message', { data })));
    send({ type: 'bourse:navigate', path: '//evil.example/x' });
    send({ type: 'other', path: '/alerts' });
    expect(view.getByTestId('where').textContent).toBe('/markets');
    send({ type: 'bourse:navigate', path: '/stock/v2/TCS.NS/TCS' });
    expect(view.getByTestId('where').textContent).toBe('/stock/v2/TCS.NS/TCS');
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });
});

describe('a new inbox item while the app is open', () => {
  const shown: string[] = [];
  // showSystemNotification asks for the registration in the same turn as the toast.
  let asked = 0;
  beforeEach(() => {
    shown.length = 0;
    asked = 0;
    localStorage.clear();
    vi.stubGlobal('Notification', { permission: 'granted' });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        getRegistration: () => {
          asked++;
          return Promise.resolve({ showNotification: async (title: string) => void shown.push(title) });
        },
      },
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  async function newItem(): Promise<void> {
    useSession.setState({ token: 'c', userInfo: { id: 3, user: '9876543212', login: 1 } });
    const view = render(watcher());
    unread = { unread_count: 0, latest_id: 1 };
    view.rerender(watcher());
    fake.respond = inboxHolds(row(2, 'Infosys'));
    unread = { unread_count: 1, latest_id: 2 };
    await act(async () => view.rerender(watcher()));
    await vi.waitFor(() => expect(useUi.getState().toasts).toHaveLength(1));
  }

  it('is a toast and a system notification when this device has no push', async () => {
    await newItem();
    expect(asked).toBe(1);
    await vi.waitFor(() => expect(shown).toHaveLength(1));
  });

  it('is a toast only when this device has push on: the server’s push shows it, once', async () => {
    localStorage.setItem(DEVICE_KEY, '5');
    await newItem();
    expect(asked).toBe(0);
    expect(shown).toEqual([]);
  });
});
