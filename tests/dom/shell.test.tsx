import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WatchlistItem } from '#shared/contract/trading';
import { useConnectionState, useOnline } from '../../src/api/connection';
import { setLowDataPref } from '../../src/api/lowData';
import { currencyFor, parseConfig } from '../../src/api/useConfig';
import { overlayFavourites } from '../../src/device/favourites';
import { toastMoneyFailure } from '../../src/screens/_parts/invest/useMoneyCall';
import { ConnectionBanner } from '../../src/shell/ConnectionBanner';
import { LanguageMenu } from '../../src/shell/LanguageMenu';
import { enabledLanguages } from '../../src/shell/languageChoices';
import { afterFirstScreen } from '../../src/shell/signedInParts';
import { isSwipeBack, SWIPE } from '../../src/shell/swipeBack';
import { UpdatePrompt } from '../../src/shell/UpdatePrompt';
import { useUpdate } from '../../src/shell/update';
import { UPDOWN_KEY, useUpDown } from '../../src/shell/updown';
import { toast, useUi } from '../../src/store/ui';
import { AsOf, asOfText } from '../../src/ui/AsOf';
import { MoneyButton } from '../../src/ui/MoneyButton';
import { Sparkline } from '../../src/ui/Sparkline';
import { readingMs, Toasts } from '../../src/ui/Toasts';
import type { Connection } from '../../workers/network';
import { fake } from '../support/fake-worker';

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
const LAST_GOOD = Date.now() - 90_000;
function setConnection(state: Connection, lowData = false): void {
  fake.emit('connection', {
    state,
    lastGoodAt: LAST_GOOD,
    since: Date.now(),
    lowData,
    lowDataBy: lowData ? 'setting' : null,
  });
}

/** Shell pieces and the helpers screens use, rendered in happy-dom with the real English texts. */
beforeAll(async () => {
  const dir = path.resolve(__dirname, '../../locales/en');
  // Deep merge: several files add keys under the same group (locales/README.md).
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
  await i18n
    .use(initReactI18next)
    .init({ lng: 'en', resources: { en: { translation } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  cleanup();
});

describe('money failures (SPEC §8)', () => {
  it.each([
    ['errors.timeout', 'Failed to submit recharge request', 'The request timed out, please try again'],
    ['errors.network', 'Failed to submit recharge request', 'Network error, please check your connection'],
    [
      'core.money.missing',
      'Failed to submit recharge request',
      'This never reached us: nothing was charged. You can submit it again.',
    ],
    [
      'errors.server',
      'Failed to submit recharge request',
      'The service is unavailable, please try again later',
    ],
  ])('after %s show the screen’s text with the transport reason beneath', (error, text, detail) => {
    useUi.setState({ toasts: [] });
    render(<Toasts />);
    act(() => toastMoneyFailure(error, 'wallet.recharge.failed'));
    const shown = screen.getByRole('status').firstElementChild!;
    expect(shown.textContent).toBe(`${text}${detail}`);
    expect(shown.lastElementChild!.textContent).toBe(detail);
  });

  it('stay long enough to read: a short one at least 2.5 s, a fifteen-word withdrawal notice its reading time', () => {
    vi.useFakeTimers();
    try {
      useUi.setState({ toasts: [] });
      render(<Toasts />);
      act(() => toast('errors.generic', 'info'));
      act(() => toast('wallet.withdraw.requestedHeld', 'success', { amount: '₹300.00' }));
      const [short, long] = screen
        .getAllByText(/./, { selector: '[data-tone]' })
        .map((n) => n.textContent ?? '');
      const shortMs = readingMs(short!, 'info');
      expect(shortMs).toBe(Math.max(2500, 1000 + short!.split(/\s+/).length * 300));
      const words = long!.split(/\s+/).length;
      expect(words).toBeGreaterThanOrEqual(15);
      expect(readingMs(long!, 'success')).toBe(1000 + words * 300);
      act(() => vi.advanceTimersByTime(shortMs));
      expect(useUi.getState().toasts.map((t) => t.text)).toEqual(['wallet.withdraw.requestedHeld']);
      act(() => vi.advanceTimersByTime(1000 + words * 300 - shortMs - 1));
      expect(screen.getByText(/our team checks it before it is sent/)).toBeTruthy();
      act(() => vi.advanceTimersByTime(1));
      expect(useUi.getState().toasts).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('say the same thing once: a repeated toast replaces the one on screen, another one stacks', () => {
    useUi.setState({ toasts: [] });
    render(<Toasts />);
    act(() => toast('watch.queued'));
    act(() => toast('watch.queued'));
    expect(useUi.getState().toasts).toHaveLength(1);
    act(() => toast('watch.queued', 'error'));
    act(() => toast('wallet.withdraw.requested', 'success'));
    expect(useUi.getState().toasts.map((t) => [t.text, t.tone])).toEqual([
      ['watch.queued', 'info'],
      ['watch.queued', 'error'],
      ['wallet.withdraw.requested', 'success'],
    ]);
  });

  it('show the server’s own refusal as it is, with its values', () => {
    useUi.setState({ toasts: [] });
    render(<Toasts />);
    act(() => toastMoneyFailure('errors.insufficientFunds', 'fund.failed'));
    expect(screen.getByRole('status').textContent).toBe('Insufficient funds');
  });
});

describe('money actions', () => {
  it('are disabled offline with the reason announced, and enabled again online', () => {
    render(<MoneyButton>Buy</MoneyButton>);
    act(() => setConnection('online'));
    const button = screen.getByRole('button', { name: 'Buy' });
    expect(button).not.toHaveProperty('disabled', true);
    act(() => setConnection('offline'));
    expect(button).toHaveProperty('disabled', true);
    const reason = screen.getByText(/money never moves without a connection/);
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    act(() => setConnection('online'));
    expect(button).toHaveProperty('disabled', false);
    expect(screen.queryByText(/money never moves/)).toBeNull();
  });

  it('are paused while the server cannot be reached, and allowed on a slow but answering server', () => {
    render(<MoneyButton>Recharge</MoneyButton>);
    const button = screen.getByRole('button', { name: 'Recharge' });
    act(() => setConnection('unreachable'));
    expect(button).toHaveProperty('disabled', true);
    expect(screen.getByText(/server can't be reached/).id).toBe(button.getAttribute('aria-describedby'));
    act(() => setConnection('slow'));
    expect(button).toHaveProperty('disabled', false);
    act(() => setConnection('online'));
  });

  it('say what became of a sent request: checking while unconfirmed, "Submit again" only when never received', () => {
    const resend = vi.fn();
    const dismiss = vi.fn();
    const { rerender } = render(
      <MoneyButton call={{ phase: 'unconfirmed', resend, dismiss }} loading>
        Buy
      </MoneyButton>,
    );
    // Busy: it refuses taps but keeps the keyboard's focus (aria-disabled, not disabled).
    expect(screen.getByRole('button', { name: 'Buy' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByText(/checking whether this reached us/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit again' })).toBeNull();
    rerender(
      <MoneyButton call={{ phase: 'missing', resend, dismiss }} loading>
        Buy
      </MoneyButton>,
    );
    expect(screen.getByText(/never reached us: nothing was charged/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Submit again' }));
    expect(resend).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: "Don't send" }));
    expect(dismiss).toHaveBeenCalledTimes(1);
  });
});

describe('connection banner', () => {
  it('names each state, says when data was fresh, offers Retry now when unreachable, and clears online', () => {
    let retries = 0;
    fake.worker.retryNow = () => {
      retries += 1;
    };
    const { container } = render(<ConnectionBanner />);
    act(() => setConnection('online'));
    expect(container.textContent).toBe('');
    act(() => setConnection('unreachable'));
    expect(screen.getByText("Can't reach Bourse")).toBeTruthy();
    expect(screen.getByText(`Data from ${asOfText(LAST_GOOD)}. Money actions are paused.`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry now' }));
    expect(retries).toBe(1);
    act(() => setConnection('slow'));
    expect(screen.getByText('Slow connection')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry now' })).toBeNull();
    act(() => setConnection('offline'));
    expect(screen.getByText("You're offline")).toBeTruthy();
    act(() => setConnection('online', true));
    expect(container.textContent).toBe('Low-data mode: fewer updates, no images');
    act(() => setConnection('online'));
    expect(container.textContent).toBe('');
  });
});

const renders = { online: 0, state: 0 };
function Reachable() {
  const online = useOnline();
  renders.online++;
  return <p>{String(online)}</p>;
}
function State() {
  const state = useConnectionState();
  renders.state++;
  return <p>{state}</p>;
}

describe('connection consumers', () => {
  it('re-render only when what they read changes, not on every connection event', () => {
    act(() => setConnection('online'));
    render(
      <>
        <Reachable />
        <State />
      </>,
    );
    const before = { ...renders };
    // A new event with the same state (the worker's first one, on listen; a new `since`).
    act(() => setConnection('online'));
    expect(renders).toEqual(before);
    // Slow: still reachable, so what polls stays; the state shown changes.
    act(() => setConnection('slow'));
    expect(renders).toEqual({ online: before.online, state: before.state + 1 });
    act(() => setConnection('unreachable'));
    expect(screen.getByText('false')).toBeTruthy();
    expect(screen.getByText('unreachable')).toBeTruthy();
  });
});

describe('low-data mode', () => {
  it('turns on by itself with Save-Data or a 2G connection, not on a fast one', () => {
    const told: boolean[] = [];
    fake.worker.setLowData = ((_pref: string, browser: boolean) => told.push(browser)) as never;
    const nav = navigator as Navigator & { connection?: unknown };
    const before = Object.getOwnPropertyDescriptor(nav, 'connection');
    const say = (connection: unknown) => {
      Object.defineProperty(nav, 'connection', { value: connection, configurable: true });
      setLowDataPref('auto');
    };
    try {
      say(undefined);
      say({ saveData: true, effectiveType: '4g' });
      say({ saveData: false, effectiveType: '2g' });
      say({ effectiveType: 'slow-2g' });
      say({ saveData: false, effectiveType: '3g' });
      expect(told).toEqual([false, true, true, true, false]);
    } finally {
      if (before) Object.defineProperty(nav, 'connection', before);
      else delete nav.connection;
    }
  });

  it("the Settings switch is kept on the device and told to the worker; 'auto' forgets it", () => {
    const told: Array<[string, boolean]> = [];
    fake.worker.setLowData = ((pref: string, browser: boolean) => told.push([pref, browser])) as never;
    setLowDataPref('on');
    expect(localStorage.getItem('bourse.lowData')).toBe('on');
    setLowDataPref('off');
    expect(localStorage.getItem('bourse.lowData')).toBe('off');
    setLowDataPref('auto');
    expect(localStorage.getItem('bourse.lowData')).toBeNull();
    expect(told.map(([pref]) => pref)).toEqual(['on', 'off', 'auto']);
  });

  it('draws no sparkline (the box stays), and draws it again when it is off', async () => {
    fake.worker.sparklines = (async (series: number[][]) =>
      series.map(() => ({ line: 'M0 0L1 1', area: 'M0 0L1 1Z' }))) as never;
    const { container } = render(<Sparkline values={[1, 3, 2]} trend={1} />);
    act(() => setConnection('online', true));
    await act(async () => {});
    expect(container.querySelector('svg')).not.toBeNull();
    expect(container.querySelectorAll('path')).toHaveLength(0);
    act(() => setConnection('online'));
    await vi.waitFor(() => expect(container.querySelectorAll('path')).toHaveLength(2));
  });
});

describe('as-of labels', () => {
  it('show the time today, the date on another day, and mark stale data', () => {
    const now = new Date(2026, 0, 15, 14, 30, 5).getTime();
    expect(asOfText(now - 60_000, now)).toBe('14:29:05');
    expect(asOfText(now - 2 * 86_400_000, now)).toBe('13/01/2026, 14:30');
    const at = Date.now() - 5000;
    render(<AsOf at={at} stale />);
    expect(screen.getByText('Last known')).toBeTruthy();
    expect(screen.getByText(/^as of /).getAttribute('datetime')).toBe(new Date(at).toISOString());
    cleanup();
    const { container } = render(<AsOf at={null} stale />);
    expect(container.textContent).toBe('');
  });
});

describe('update prompt', () => {
  it('waits while a dialog is open or a form holds typed input, and applies only on a tap', () => {
    let applied = 0;
    useUpdate.setState({ available: true, apply: () => applied++ });
    render(
      <MemoryRouter>
        <form>
          <input aria-label="Amount" />
        </form>
        <UpdatePrompt />
      </MemoryRouter>,
    );
    expect(screen.getByText('New version available')).toBeTruthy();
    act(() => useUi.getState().openDialog());
    expect(screen.queryByText('New version available')).toBeNull();
    act(() => useUi.getState().closeDialog());
    expect(screen.getByText('New version available')).toBeTruthy();
    act(() => {
      fireEvent.input(screen.getByLabelText('Amount'), { target: { value: '5000' } });
    });
    expect(screen.queryByText('New version available')).toBeNull();
    act(() => {
      fireEvent.submit(screen.getByLabelText('Amount').closest('form')!);
    });
    expect(applied).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(applied).toBe(1);
    useUpdate.setState({ available: false });
  });
});

describe('up/down colours', () => {
  it('default to green-up; red-up marks <html> and is kept on the device', () => {
    expect(useUpDown.getState().mode).toBe('green-up');
    expect(document.documentElement.dataset.updown).toBeUndefined();
    act(() => useUpDown.getState().setMode('red-up'));
    expect(document.documentElement.dataset.updown).toBe('red-up');
    expect(JSON.parse(localStorage.getItem(UPDOWN_KEY)!).state.mode).toBe('red-up');
    act(() => useUpDown.getState().setMode('green-up'));
    expect(document.documentElement.dataset.updown).toBeUndefined();
  });
});

describe('around the shell', () => {
  it('the language menu offers what the config enables (English by default), in a stable order', () => {
    expect(enabledLanguages(parseConfig(undefined).languages)).toEqual(['en']);
    expect(enabledLanguages(['de', 'en', 'xx'])).toEqual(['en', 'de']);
    expect(enabledLanguages([])).toEqual(['en']);
  });

  it('the language menu opens its sheet at the first tap (its code comes then)', async () => {
    render(<LanguageMenu />);
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Language' }));
    expect(await screen.findByRole('button', { name: 'English' })).toBeTruthy();
  });

  it('the signed-in sheets wait for the first screen, but not past the user’s first tap', async () => {
    // No idle period ever comes (a busy phone): the tap alone lets them load.
    vi.stubGlobal('requestIdleCallback', () => 0);
    let done = false;
    const shown = afterFirstScreen().then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    window.dispatchEvent(new Event('pointerdown'));
    await shown;
    expect(done).toBe(true);
  });

  it('currency follows the region: IN ₹ with Indian grouping, US $', () => {
    const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
    expect(currencyFor(config, 'IN')).toEqual({ unit: 'INR', symbol: '₹' });
    expect(currencyFor(config, 'US')).toEqual({ unit: 'USD', symbol: '$' });
    expect(currencyFor(config, 'FOREX')).toEqual({ unit: 'INR', symbol: '₹' });
  });

  it('any configured unit gets its own symbol: MXN its peso sign, not ₹; the region map still rules IN and US', () => {
    expect(parseConfig([{ tag: 'currency_unit', value: 'MXN' }]).currency).toEqual({
      unit: 'MXN',
      symbol: '$',
    });
    expect(parseConfig([{ tag: 'currency_unit', value: 'EUR' }]).currency).toEqual({
      unit: 'EUR',
      symbol: '€',
    });
    expect(parseConfig([{ tag: 'currency_unit', value: 'USD' }]).currency).toEqual({
      unit: 'USD',
      symbol: '$',
    });
    expect(parseConfig([]).currency).toEqual({ unit: 'INR', symbol: '₹' });
    const mapped = parseConfig([
      { tag: 'currency_unit', value: 'MXN' },
      { tag: 'currency_symbols', value: '{"IN":"Rs","MXN":"MX$"}' },
    ]);
    expect(mapped.currency).toEqual({ unit: 'MXN', symbol: 'MX$' });
    expect(currencyFor(mapped, 'IN')).toEqual({ unit: 'INR', symbol: 'Rs' });
    expect(currencyFor(mapped, 'US')).toEqual({ unit: 'USD', symbol: '$' });
    expect(parseConfig([{ tag: 'currency_unit', value: 'ZZZ' }]).currency.symbol).toBe('ZZZ');
  });

  it('swipe back needs the left 40 px, over 60 px, under 500 ms, and mostly sideways', () => {
    const start = { x: SWIPE.edgePx, y: 300, t: 0 };
    expect(isSwipeBack(start, { x: 40 + 61, y: 310, t: 499 })).toBe(true);
    expect(isSwipeBack({ ...start, x: 41 }, { x: 200, y: 300, t: 100 })).toBe(false);
    expect(isSwipeBack(start, { x: 40 + 60, y: 300, t: 100 })).toBe(false);
    expect(isSwipeBack(start, { x: 200, y: 300, t: 500 })).toBe(false);
    expect(isSwipeBack(start, { x: 140, y: 420, t: 100 })).toBe(false);
  });

  it('the watchlist shows pending adds first and marks pending removals', () => {
    const item = (code: string): WatchlistItem =>
      ({ stock_code: code, stock_name: code, stock_detail: { market: 'IN' } }) as WatchlistItem;
    const rows = overlayFavourites(
      [item('A'), item('B')],
      {
        B: { on: false, pending: 1 },
        C: { on: true, pending: 1, name: 'Cipla', market: 'IN' },
        A: { on: true, pending: 0 },
        D: { on: false, pending: 0 },
      },
      true,
    );
    expect(rows.map((r) => [r.stock_code, r.stock_name, r.pending])).toEqual([
      ['C', 'Cipla', 'add'],
      ['A', 'A', null],
      ['B', 'B', 'remove'],
    ]);
    expect(
      overlayFavourites([item('A')], { C: { on: true, pending: 1 } }, false).map((r) => r.stock_code),
    ).toEqual(['A']);
  });
});
