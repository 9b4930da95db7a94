import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SwipeRow } from '../../src/screens/_parts/watchlist/SwipeRow';

/**
 * Watchlist rows (issue 14): a touch held 550 ms on a row opens its actions (Buy, Sell, Chart,
 * Alert, Remove as a sheet, `onMenu`); a finger that moves first is a scroll or a swipe, not a long
 * press; and the lift that ends a long press does not also open the row's link.
 */
const onMenu = vi.fn();
const onOpen = vi.fn();

function row() {
  return render(
    <ul>
      <SwipeRow
        symbol="TCS.NS"
        actionsWidth={240}
        onMenu={onMenu}
        actions={<button type="button">Buy</button>}
      >
        <a
          href="/stock/TCS.NS"
          onClick={(e) => {
            e.preventDefault();
            onOpen();
          }}
        >
          Tata Consultancy
        </a>
      </SwipeRow>
    </ul>,
  );
}

const touch = { pointerId: 1, pointerType: 'touch', button: 0, isPrimary: true };
const at = (x: number, y: number) => ({ ...touch, clientX: x, clientY: y });

beforeEach(() => {
  vi.useFakeTimers();
  onMenu.mockClear();
  onOpen.mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('SwipeRow long press', () => {
  it('opens the row actions after a 550 ms hold, and the lift is not a tap on the row', () => {
    row();
    const link = screen.getByRole('link', { name: 'Tata Consultancy' });
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(549));
    expect(onMenu).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onMenu).toHaveBeenCalledTimes(1);
    fireEvent.pointerUp(link, at(100, 20));
    fireEvent.click(link);
    expect(onOpen).not.toHaveBeenCalled();
    // The next tap is a tap again.
    fireEvent.click(link);
    expect(onOpen).toHaveBeenCalledTimes(1);
  });

  it('a finger that moves during the hold (a scroll or a swipe) cancels it', () => {
    row();
    const link = screen.getByRole('link', { name: 'Tata Consultancy' });
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(300));
    fireEvent.pointerMove(link, at(100, 40));
    act(() => vi.advanceTimersByTime(1000));
    expect(onMenu).not.toHaveBeenCalled();
    fireEvent.pointerUp(link, at(100, 40));
    // Sideways too.
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(300));
    fireEvent.pointerMove(link, at(70, 21));
    act(() => vi.advanceTimersByTime(1000));
    expect(onMenu).not.toHaveBeenCalled();
  });

  it('a tremor within 10 px still holds; lifting early is a plain tap', () => {
    row();
    const link = screen.getByRole('link', { name: 'Tata Consultancy' });
    fireEvent.pointerDown(link, at(100, 20));
    fireEvent.pointerMove(link, at(104, 23));
    act(() => vi.advanceTimersByTime(550));
    expect(onMenu).toHaveBeenCalledTimes(1);
    fireEvent.pointerUp(link, at(104, 23));
    fireEvent.click(link);
    onMenu.mockClear();
    // Down and up within the hold: no actions, the row opens.
    fireEvent.pointerDown(link, at(100, 20));
    act(() => vi.advanceTimersByTime(200));
    fireEvent.pointerUp(link, at(100, 20));
    fireEvent.click(link);
    act(() => vi.advanceTimersByTime(1000));
    expect(onMenu).not.toHaveBeenCalled();
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
});
