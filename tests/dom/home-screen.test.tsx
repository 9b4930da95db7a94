import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../src/routes';
import SettingsScreen from '../../src/screens/Settings/SettingsScreen';
import { AppShell } from '../../src/shell/AppShell';
import { DesktopWarning } from '../../src/shell/DesktopWarning';
import { CLEARED, checkDeviceKept, registerDeviceWipe } from '../../src/shell/device';
import { InstallOffer, IosGuide } from '../../src/shell/HomeScreenOffer';
import { startHomeScreen, useHomeScreen } from '../../src/shell/homeScreen';
import { DEVICE_KEY } from '../../src/shell/pushDevice';
import { endSession } from '../../src/shell/session';
import { SESSION_KEY, useSession } from '../../src/store/session';
import { fake } from '../support/fake-worker';

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/*
 * Home-screen users: the install offer after a sign-in (never on first paint, dismissed
 * for good), iOS Safari's "Add to Home Screen" guide (once, and from Settings), standalone mode
 * (no offer, no desktop warning), persistent storage asked once and shown in Settings, and a start
 * after the browser cleared the device store (the sign-in screen says why).
 */
beforeAll(async () => {
  const dir = path.resolve(__dirname, '../../locales/en');
  const merge = (into: Record<string, unknown>, from: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(from)) {
      const at = into[k];
      if (v && typeof v === 'object' && at && typeof at === 'object')
        merge(at as Record<string, unknown>, v as Record<string, unknown>);
      else into[k] = v;
    }
  };
  const translation = {};
  for (const f of fs.readdirSync(dir))
    merge(translation, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { translation } } });
  startHomeScreen();
  registerDeviceWipe();
});

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1';
const ua = navigator.userAgent;
let standalone = false;
const persist = vi.fn(async () => true);
const persisted = vi.fn(async () => true);

function setAgent(agent: string): void {
  Object.defineProperty(navigator, 'userAgent', { value: agent, configurable: true });
}
const signIn = (id = 7) =>
  act(() => useSession.getState().signIn({ token: `t${id}`, id, user: '9876543210', login: 1 } as never));
const signOut = () => act(() => useSession.getState().clear());

beforeEach(() => {
  fake.reset();
  localStorage.clear();
  sessionStorage.clear();
  standalone = false;
  persist.mockClear();
  persisted.mockClear();
  setAgent(ua);
  useSession.setState({ token: null, userInfo: null, held: false });
  useHomeScreen.setState({ prompt: null, signedInHere: false, declined: false, guide: false });
  vi.stubGlobal('matchMedia', (q: string) => ({
    matches: q.includes('standalone') ? standalone : q.includes('min-width: 768px'),
    media: q,
    addEventListener() {},
    removeEventListener() {},
  }));
  Object.defineProperty(navigator, 'storage', { value: { persist, persisted }, configurable: true });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function installPrompt() {
  const e = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
    prompt: ReturnType<typeof vi.fn>;
    userChoice: Promise<{ outcome: string }>;
  };
  e.prompt = vi.fn(async () => {});
  e.userChoice = Promise.resolve({ outcome: 'accepted' });
  act(() => {
    window.dispatchEvent(e);
  });
  return e;
}

describe('install offer', () => {
  it('waits for a sign-in, never on first paint; Install asks the browser once, and it does not come back', async () => {
    const e = installPrompt();
    expect(e.defaultPrevented).toBe(true);
    render(<InstallOffer />);
    expect(screen.queryByRole('complementary', { name: 'Install Bourse' })).toBeNull();
    signIn();
    const offer = screen.getByRole('complementary', { name: 'Install Bourse' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Install' })));
    expect(e.prompt).toHaveBeenCalledTimes(1);
    expect(offer.isConnected).toBe(false);
    signOut();
    installPrompt();
    signIn();
    expect(screen.queryByRole('complementary', { name: 'Install Bourse' })).toBeNull();
  });

  it('"Not now" dismisses it for good', () => {
    installPrompt();
    render(<InstallOffer />);
    signIn();
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('complementary', { name: 'Install Bourse' })).toBeNull();
    expect(localStorage.getItem('bourse.install.declined')).toBe('1');
  });
});

describe('iOS Safari', () => {
  it('shows the Share → Add to Home Screen guide once after a sign-in, and from Settings', async () => {
    setAgent(IPHONE);
    render(
      <MemoryRouter>
        <IosGuide />
      </MemoryRouter>,
    );
    signIn();
    const guide = screen.getByRole('dialog', { name: 'Add Bourse to your Home Screen' });
    expect(guide.textContent).toContain('Tap Share');
    expect(guide.textContent).toContain('Add to Home Screen');
    expect(guide.querySelectorAll('li svg')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    signOut();
    signIn();
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    render(
      <MemoryRouter>
        <SettingsScreen />
        <IosGuide />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add to Home Screen' }));
    expect(screen.getByRole('dialog', { name: 'Add Bourse to your Home Screen' })).toBeTruthy();
  });
});

describe('storage and standalone', () => {
  it('asks once for persistent storage after a sign-in and shows the answer in Settings', async () => {
    signIn();
    signOut();
    signIn();
    expect(persist).toHaveBeenCalledTimes(1);
    render(
      <MemoryRouter>
        <SettingsScreen />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Kept')).toBeTruthy();
    expect(screen.getByText('Offline data')).toBeTruthy();
    cleanup();
    persisted.mockResolvedValueOnce(false);
    render(
      <MemoryRouter>
        <SettingsScreen />
      </MemoryRouter>,
    );
    expect(await screen.findByText('May be cleared by the browser')).toBeTruthy();
  });

  it('opened from the home screen: no desktop warning and no install offer; not on iOS either', () => {
    render(<DesktopWarning />);
    expect(screen.getByRole('complementary', { name: 'Bourse is made for phones' })).toBeTruthy();
    cleanup();
    standalone = true;
    setAgent(IPHONE);
    installPrompt();
    render(
      <MemoryRouter>
        <DesktopWarning />
        <InstallOffer />
      </MemoryRouter>,
    );
    signIn();
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(useHomeScreen.getState().guide).toBe(false);
  });
});

describe('a device store the browser cleared', () => {
  it('ends the session at start and the sign-in screen says why', async () => {
    fake.worker.markDevice = async () => {};
    signIn(9);
    await vi.waitFor(() => expect(localStorage.getItem('bourse.device.marked')).toBe('9'));
    // Later start: the session survived in localStorage, the device store did not.
    fake.worker.deviceMarked = async () => false;
    await checkDeviceKept(9);
    expect(useSession.getState().token).toBeNull();
    expect(sessionStorage.getItem(CLEARED)).toBe('1');
    const login = ROUTES.find((r) => r.path === '/login')!;
    render(
      <MemoryRouter initialEntries={['/login']}>
        <AppShell route={login}>
          <h1>Log in</h1>
        </AppShell>
      </MemoryRouter>,
    );
    expect(screen.getByText(/This browser cleared Bourse's data on this device/).getAttribute('role')).toBe(
      'status',
    );
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeTruthy();
  });

  it('leaves a kept store, or one that cannot be read, alone', async () => {
    fake.worker.markDevice = async () => {};
    signIn(5);
    await vi.waitFor(() => expect(localStorage.getItem('bourse.device.marked')).toBe('5'));
    for (const answer of [true, null]) {
      fake.worker.deviceMarked = async () => answer;
      await checkDeviceKept(5);
      expect(useSession.getState().token).toBe('t5');
    }
  });
});

/** The login screen as far as the guard is concerned: where it was told to return. */
function LoginProbe() {
  const from = (useLocation().state as { from?: string } | null)?.from;
  return <h1>Login{from ? ` from ${from}` : ''}</h1>;
}

describe('logout', () => {
  it('forgets this device’s push id (the subscription code, a chunk of its own, is fetched then)', async () => {
    signIn();
    localStorage.setItem(DEVICE_KEY, '5');
    await act(() => endSession());
    expect(localStorage.getItem(DEVICE_KEY)).toBeNull();
  });
});

describe('the session guard', () => {
  const settings = ROUTES.find((r) => r.path === '/settings')!;
  const app = () =>
    render(
      <MemoryRouter initialEntries={['/settings']}>
        <Routes>
          <Route
            path="/settings"
            element={
              <AppShell route={settings}>
                <h1>Settings</h1>
              </AppShell>
            }
          />
          <Route path="/login" element={<LoginProbe />} />
        </Routes>
      </MemoryRouter>,
    );

  it('returns a visitor who opened a private link to it after login', () => {
    app();
    expect(screen.getByRole('heading').textContent).toBe('Login from /settings');
  });

  it('leads a session that ends on a screen (logout, expiry) to login without a way back: login goes home', async () => {
    signIn(3);
    app();
    // The signed-in parts of the shell load on first use: the screen shows once they have.
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
    signOut();
    // The redirect is not promised within act (at load 18 it came after act returned): wait for it.
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
    expect(screen.getAllByRole('heading')).toHaveLength(1);
  });

  it('leads a kept session the server has already ended to login without a way back, even when the 401 comes before the first render', async () => {
    localStorage.setItem(
      SESSION_KEY,
      JSON.stringify({
        state: { token: 't9', userInfo: { id: 9, user: '9876543210', login: 1 } },
        version: 0,
      }),
    );
    await useSession.persist.rehydrate();
    expect(useSession.getState().token).toBe('t9');
    // The startup 401 ends it while the screen's chunk is still loading.
    signOut();
    app();
    expect(screen.getByRole('heading').textContent).toBe('Login');
  });
});
