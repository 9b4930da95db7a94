import fs from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { overlayFavourites } from '../../src/api/favourites';
import { currencyFor, parseConfig } from '../../src/api/useConfig';
import type { WatchlistItem } from '../../src/shared/contract/trading';
import { enabledLanguages } from '../../src/shell/LanguageMenu';
import { isSwipeBack, SWIPE } from '../../src/shell/swipeBack';
import { UpdatePrompt } from '../../src/shell/UpdatePrompt';
import { useUpdate } from '../../src/shell/update';
import { UPDOWN_KEY, useUpDown } from '../../src/shell/updown';
import { useUi } from '../../src/store/ui';
import { AsOf, asOfText } from '../../src/ui/AsOf';
import { MoneyButton } from '../../src/ui/MoneyButton';

/** Shell pieces and the helpers screens use, rendered in happy-dom with the real English texts. */
beforeAll(async () => {
  const dir = path.resolve(__dirname, '../../locales/en');
  const translation = {};
  for (const f of fs.readdirSync(dir))
    Object.assign(translation, JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
  await i18n
    .use(initReactI18next)
    .init({ lng: 'en', resources: { en: { translation } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  cleanup();
});

function setOnline(online: boolean): void {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

describe('money actions', () => {
  it('are disabled offline with the reason announced, and enabled again online', () => {
    setOnline(true);
    render(<MoneyButton>Buy</MoneyButton>);
    const button = screen.getByRole('button', { name: 'Buy' });
    expect(button).not.toHaveProperty('disabled', true);
    act(() => setOnline(false));
    expect(button).toHaveProperty('disabled', true);
    const reason = screen.getByText(/money never moves without a connection/);
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    act(() => setOnline(true));
    expect(button).toHaveProperty('disabled', false);
    expect(screen.queryByText(/money never moves/)).toBeNull();
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

  it('currency follows the region: IN ₹ with Indian grouping, US $', () => {
    const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
    expect(currencyFor(config, 'IN')).toEqual({ unit: 'INR', symbol: '₹' });
    expect(currencyFor(config, 'US')).toEqual({ unit: 'USD', symbol: '$' });
    expect(currencyFor(config, 'FOREX')).toEqual({ unit: 'INR', symbol: '₹' });
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
