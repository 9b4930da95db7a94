import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRow } from '#shared/contract/watchlist';
import { initI18n } from '../../src/i18n/index';
import type { AppRoute } from '../../src/routes';
import { AlertDialog } from '../../src/screens/_parts/watchlist/AlertDialog';
import { AppShell } from '../../src/shell/AppShell';
import { InboxWatcher, resetInboxWatcher } from '../../src/shell/Inbox';
import { useSession } from '../../src/store/session';
import { useUi } from '../../src/store/ui';
import { fake } from '../support/fake-worker';

/**
 * System notifications for price alerts (src/screens/_parts/watchlist/notify.ts): the
 * permission is asked when the user makes their first alert — never at app start, never on an edit
 * — and a fired alert seen while the app is open is shown through the service worker's
 * registration only when the user allowed it.
 */
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
vi.mock('../../src/api/quotes', () => ({
  useQuote: () => ({ quote: { price: 100, decimals: 2, source: 'network' }, stale: false }),
}));
let unread: { unread_count: number; latest_id: number } | undefined;
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return {
    useWatch: (name: string) =>
      watchResult(name === 'notificationUnread' ? unread : undefined, { source: unread ? 'network' : null }),
  };
});

/** The browser's Notification: what the user answers when asked, and what they answered before. */
let answerWith: NotificationPermission = 'granted';
const requestPermission = vi.fn(async () => {
  FakeNotification.permission = answerWith;
  return answerWith;
});
const FakeNotification = { permission: 'default' as NotificationPermission, requestPermission };
const showNotification = vi.fn(async (_title: string, _options: NotificationOptions) => {});
const getRegistration = vi.fn(async () => ({ showNotification }));

const alertRow = (over: Partial<AlertRow> = {}): AlertRow => ({
  id: 3,
  symbol: 'TCS.NS',
  name: 'Tata Consultancy',
  region: 'IN',
  decimals: 2,
  kind: 'above',
  value: 101,
  ref_price: 100,
  status: 'active',
  created_at: 1,
  fired_at: null,
  fired_price: null,
  ...over,
});

const fired = (id: number) => ({
  id,
  kind: 'alert',
  symbol: 'TCS.NS',
  params: { name: 'Tata Consultancy', kind: 'above', value: 101, price: 101.5, change: 1, decimals: 2 },
  created_at: 1,
  read: false,
});

beforeAll(async () => {
  await initI18n('all');
  vi.stubGlobal('Notification', FakeNotification);
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration, addEventListener: () => {}, removeEventListener: () => {} },
  });
  // jsdom has no modal dialogs.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
beforeEach(() => {
  fake.reset();
  unread = undefined;
  answerWith = 'granted';
  FakeNotification.permission = 'default';
  requestPermission.mockClear();
  showNotification.mockClear();
  getRegistration.mockClear();
  resetInboxWatcher();
  useUi.setState({ toasts: [] });
  useSession.setState({ token: 't', userInfo: { id: 1, user: '9876543210', login: 1 } });
});
afterEach(cleanup);

const target = { symbol: 'TCS.NS', name: 'Tata Consultancy' };

describe('notification permission', () => {
  it('is not asked at app start, signed in with fired alerts in the inbox', async () => {
    unread = { unread_count: 2, latest_id: 9 };
    const route: AppRoute = { path: '/', screen: 'Home' };
    render(
      <MemoryRouter>
        <AppShell route={route}>
          <p>Home</p>
        </AppShell>
      </MemoryRouter>,
    );
    // The screen shows once the signed-in parts of the shell have arrived, the inbox watcher with them.
    expect(await screen.findByText('Home')).toBeTruthy();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(requestPermission).not.toHaveBeenCalled();
  });

  it('is asked once the first alert is made, not before and not when the server refused it', async () => {
    fake.answers = [
      { ok: false, error: 'errors.alertLimit', status: 400 },
      { ok: true, data: alertRow() },
    ];
    const onClose = vi.fn();
    render(<AlertDialog target={target} onClose={onClose} />);
    expect(requestPermission).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Set alert' }));
    await waitFor(() => expect(fake.calls).toHaveLength(1));
    await act(async () => {});
    expect(requestPermission).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Set alert' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fake.calls.map((c) => c.name)).toEqual(['alertCreate', 'alertCreate']);
    expect(requestPermission).toHaveBeenCalledTimes(1);
  });

  it('is not asked when an alert is edited, nor again once the user has answered', async () => {
    fake.respond = () => ({ ok: true, data: alertRow() });
    const onClose = vi.fn();
    const view = render(<AlertDialog target={target} editing={alertRow()} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save alert' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(fake.calls.map((c) => c.name)).toEqual(['alertUpdate']);
    expect(requestPermission).not.toHaveBeenCalled();
    // A refusal is the user's answer: a later new alert does not ask again.
    view.unmount();
    FakeNotification.permission = 'denied';
    render(<AlertDialog target={target} onClose={onClose} />);
    fireEvent.click(screen.getByRole('button', { name: 'Set alert' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    expect(requestPermission).not.toHaveBeenCalled();
  });
});

describe('a fired alert while the app is open', () => {
  /** The watcher learns the newest item (5), then a newer one (6) arrives: the fired alert. */
  async function fire() {
    fake.respond = (name) =>
      name === 'notificationList'
        ? { ok: true, data: { rows: [fired(6), fired(5)], count: 2, unread: 2 } }
        : { ok: true, data: null };
    const watcher = () => (
      <MemoryRouter>
        <InboxWatcher />
      </MemoryRouter>
    );
    unread = { unread_count: 1, latest_id: 5 };
    const view = render(watcher());
    unread = { unread_count: 2, latest_id: 6 };
    await act(async () => view.rerender(watcher()));
    await waitFor(() => expect(useUi.getState().toasts).toHaveLength(1));
    await act(async () => {});
  }

  it('shows a system notification through the service worker when allowed', async () => {
    FakeNotification.permission = 'granted';
    await fire();
    expect(showNotification).toHaveBeenCalledTimes(1);
    const [title, options] = showNotification.mock.calls[0]!;
    expect(title).toContain('Tata Consultancy');
    expect(options).toMatchObject({ tag: 'alert-6', data: { path: '/stock/v2/TCS.NS/Tata%20Consultancy' } });
    expect(options.body).toBeTruthy();
    expect(requestPermission).not.toHaveBeenCalled();
  });

  it('shows none when the user refused (the toast and the inbox still have it)', async () => {
    FakeNotification.permission = 'denied';
    await fire();
    expect(showNotification).not.toHaveBeenCalled();
    expect(requestPermission).not.toHaveBeenCalled();
  });
});
