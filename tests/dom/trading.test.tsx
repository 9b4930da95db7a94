import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { RecordCard } from '../../src/screens/Records/RecordsScreen';
import { recordStatus, statusOfTab } from '../../src/screens/Records/useRecords';
import { parseLimitPrice } from '../../src/screens/StockTrading/useStockTrading';
import { candidateSymbols } from '../../src/screens/TradingEntry/useTradingEntry';
import { priceDecimals, tradingPath } from '../../src/screens/trade/parts';
import type { OrderRow } from '../../src/shared/contract/trading';
import { LoadMore, usePages } from '../../src/ui';

/** The trading screens' pure pieces: paging, record cards and statuses, limit prices, code lookup. */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));

beforeAll(async () => {
  await initI18n();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ORDER: OrderRow = {
  id: 7,
  no: 'S123',
  tag: 'TCS.NS',
  name: 'Tata Consultancy Services',
  market: 'IN',
  type: 'IN',
  mold: 'stock',
  state: 'sell',
  status: 1,
  count: 10,
  price: 3700,
  sell_price: 3772.06,
  fee: '0.00',
  price_all: '37720.60',
  profit: '720.60',
  created_at: Date.UTC(2026, 10, 24, 9, 30),
  updated_at: Date.UTC(2026, 10, 24, 9, 30),
  expires_at: null,
  limit_price: 3770,
  sellable: false,
};

describe('infinite paging', () => {
  it('asks for one more page only once the last one asked for has settled', () => {
    const { result } = renderHook(({ key }) => usePages(key), { initialProps: { key: 'stock' } });
    expect(result.current).toMatchObject({ pages: 1, rest: [], loading: false });
    act(() => result.current.more());
    expect(result.current).toMatchObject({ pages: 2, rest: [2], loading: true });
    act(() => result.current.more());
    expect(result.current.pages).toBe(2);
    act(() => result.current.settle(2));
    act(() => result.current.more());
    expect(result.current).toMatchObject({ pages: 3, rest: [2, 3], loading: true });
  });

  it('starts again from one page when the filter changes', () => {
    const { result, rerender } = renderHook(({ key }) => usePages(key), { initialProps: { key: 'stock' } });
    act(() => result.current.more());
    rerender({ key: 'forex' });
    expect(result.current).toMatchObject({ pages: 1, rest: [], loading: false });
  });

  it('loads the next page when the end of the list comes within 50 px, and says when there is no more', () => {
    let report: ((entries: Array<{ isIntersecting: boolean }>) => void) | null = null;
    let margin = '';
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: typeof report, options: { rootMargin: string }) {
          report = cb;
          margin = options.rootMargin;
        }
        observe() {}
        disconnect() {}
      },
    );
    const onMore = vi.fn();
    const { rerender } = render(<LoadMore hasMore loading={false} onMore={onMore} />);
    expect(margin).toBe('0px 0px 50px 0px');
    act(() => report?.([{ isIntersecting: false }]));
    expect(onMore).not.toHaveBeenCalled();
    act(() => report?.([{ isIntersecting: true }]));
    expect(onMore).toHaveBeenCalledTimes(1);
    // The button is the keyboard's way to the next page.
    act(() => screen.getByRole('button', { name: 'Load more' }).click());
    expect(onMore).toHaveBeenCalledTimes(2);
    rerender(<LoadMore hasMore={false} loading={false} onMore={onMore} />);
    expect(screen.getByText('No more')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('stock records', () => {
  it('maps the tabs and statuses settled in DESIGN.md', () => {
    expect(statusOfTab('all')).toBeUndefined();
    expect([
      statusOfTab('pending'),
      statusOfTab('success'),
      statusOfTab('cancelled'),
      statusOfTab('expired'),
    ]).toEqual([0, 1, 2, 3]);
    expect(recordStatus({ status: 0 })).toEqual({ key: 'records.status.pending', tone: 'warn' });
    expect(recordStatus({ status: 4 }).key).toBe('records.status.failed');
    expect(recordStatus({ status: 9 }).key).toBe('records.status.unknown');
  });

  it('shows a sell with its code, sell and cost price, P/L and total, and no cancel button', () => {
    render(
      <MemoryRouter>
        <ul>
          <RecordCard order={ORDER} onCancel={() => {}} />
        </ul>
      </MemoryRouter>,
    );
    expect(screen.getByText('TCS')).toBeTruthy();
    expect(screen.queryByText('TCS.NS')).toBeNull();
    expect(screen.getByText('Sell price').nextSibling?.textContent).toBe('₹3,772.06');
    expect(screen.getByText('Cost price').nextSibling?.textContent).toBe('₹3,700.00');
    expect(screen.getByText('Profit/loss').nextSibling?.textContent).toContain('+₹720.60');
    expect(screen.getByText('Total').nextSibling?.textContent).toBe('₹37,720.60');
    expect(screen.getByText('Success')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Cancel/ })).toBeNull();
    expect(screen.getByRole('link').getAttribute('href')).toBe(
      '/stock/trading/TCS.NS/IN/Tata%20Consultancy%20Services?type=sell',
    );
  });

  it('shows a pending buy at its limit, with what it reserved and a cancel button', () => {
    const onCancel = vi.fn();
    const pending: OrderRow = {
      ...ORDER,
      state: 'buy',
      status: 0,
      sell_price: null,
      profit: null,
      price_all: '37700.00',
    };
    render(
      <MemoryRouter>
        <ul>
          <RecordCard order={pending} onCancel={onCancel} />
        </ul>
      </MemoryRouter>,
    );
    expect(screen.getByText('Limit price').nextSibling?.textContent).toBe('₹3,770.00');
    expect(screen.getByText('Reserved').nextSibling?.textContent).toBe('₹37,700.00');
    expect(screen.queryByText('Profit/loss')).toBeNull();
    act(() => screen.getByRole('button', { name: 'Cancel order for TCS' }).click());
    expect(onCancel).toHaveBeenCalledWith(pending);
  });
});

describe('trading inputs and links', () => {
  it('takes a limit price as typed, within the instrument decimals', () => {
    expect(parseLimitPrice('1234.5', 2)).toBe(1234.5);
    expect(parseLimitPrice('1.23456', 4)).toBeNull();
    expect(parseLimitPrice('1.2345', 4)).toBe(1.2345);
    expect(parseLimitPrice('0', 2)).toBeNull();
    expect(parseLimitPrice('1.2.3', 2)).toBeNull();
    expect(parseLimitPrice('', 2)).toBeNull();
  });

  it('shows order prices with two decimals unless they need four', () => {
    expect(priceDecimals(3772.06)).toBe(2);
    expect(priceDecimals(1.0855)).toBe(4);
    expect(priceDecimals(83.1)).toBe(2);
  });

  it('tries a display code with the suffixes it drops', () => {
    expect(candidateSymbols('RELIANCE')).toEqual([
      'RELIANCE',
      'RELIANCE.NS',
      'RELIANCE.BO',
      'RELIANCE=X',
      'RELIANCE=F',
    ]);
    expect(candidateSymbols('TCS.NS')).toEqual(['TCS.NS']);
    expect(candidateSymbols('EURUSD=X')).toEqual(['EURUSD=X']);
    expect(candidateSymbols('EURUSD')).toContain('EURUSD=X');
    expect(candidateSymbols('bad code!')).toEqual([]);
  });

  it('links to the sell tab only when asked', () => {
    expect(tradingPath('AAPL', 'US', 'Apple Inc.')).toBe('/stock/trading/AAPL/US/Apple%20Inc.');
    expect(tradingPath('EURUSD=X', 'FOREX', 'EUR/USD', 'sell')).toBe(
      '/stock/trading/EURUSD%3DX/FOREX/EUR%2FUSD?type=sell',
    );
  });
});
