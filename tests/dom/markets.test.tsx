import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DepthAnswer, MarketRow, StockRow } from '#shared/contract/market';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { DepthLadder } from '../../src/screens/_parts/market/DepthLadder';
import ForexScreen from '../../src/screens/Forex/ForexScreen';
import FuturesScreen from '../../src/screens/Futures/FuturesScreen';
import MarketsScreen from '../../src/screens/Markets/MarketsScreen';
import TreasuryDebtScreen from '../../src/screens/TreasuryDebt/TreasuryDebtScreen';
import { useUi } from '../../src/store/ui';

/** The futures and treasury lists: rows, the SPEC §8 warnings for empty data and no match, errors, search. */

const config = parseConfig([
  { tag: 'currency_unit', value: 'INR' },
  { tag: 'simulated_market', value: '1' },
]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));
vi.mock('../../src/api/quotes', () => ({ useQuote: () => ({ quote: undefined, stale: false }) }));
// Rows carry a star: what the device knows of favourites, none here.
vi.mock('../../src/device/favourites', () => ({ useFavouriteMap: () => ({}) }));

const inputs: unknown[] = [];
/** Every watch by name, in order (the Markets screen watches several). */
const watches: { name: string; input: unknown }[] = [];
/** An answer for one watch name; the rest get `answer`. */
let answers: Record<string, { data: unknown; error: string | null }> = {};
let answer: { data: { rows: MarketRow[] } | undefined; error: string | null } = {
  data: undefined,
  error: null,
};
const reload = vi.fn();
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return {
    useWatch: (name: string, input: unknown) => {
      inputs.push(input);
      watches.push({ name, input });
      const { data, error } = answers[name] ?? answer;
      return watchResult(data, { error, reload });
    },
  };
});

const row = (over: Partial<MarketRow>): MarketRow => ({
  stock: 'GC=F',
  name: 'Gold',
  prasent: 4070.05,
  current_price: 4070.05,
  percent_change: -0.58,
  change: -23.85,
  exchange_name: 'COMEX',
  market: 'FUTURE',
  decimals: 2,
  ...over,
});

const toasts = () => useUi.getState().toasts.map((t) => t.text);

function show(screenElement: React.ReactElement) {
  return render(<MemoryRouter>{screenElement}</MemoryRouter>);
}

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  inputs.length = 0;
  watches.length = 0;
  answers = {};
  answer = { data: undefined, error: null };
  reload.mockClear();
  useUi.setState({ toasts: [] });
});
afterEach(cleanup);

describe('futures', () => {
  it('lists exchange, name, code, price and a signed change; a row opens the detail', () => {
    answer.data = {
      rows: [
        row({}),
        row({
          stock: 'GILT5YBEES.NS',
          name: 'G-Sec ETF',
          exchange_name: 'NSE',
          change: 0.12,
          percent_change: 0.19,
          prasent: 64.2,
        }),
      ],
    };
    show(<FuturesScreen />);
    const links = screen.getAllByRole('link').filter((a) => a.getAttribute('href')?.startsWith('/stock/'));
    expect(links).toHaveLength(2);
    expect(links[0]!.textContent).toContain('Gold');
    expect(links[0]!.textContent).toContain('COMEX');
    expect(links[0]!.textContent).toContain('4,070.05');
    expect(links[0]!.textContent).toContain('-23.85');
    expect(links[0]!.textContent).toContain('-0.58%');
    expect(links[0]!.getAttribute('href')).toBe('/stock/GC%3DF/FUTURE/Gold');
    // .NS is dropped for display, kept in the link.
    expect(links[1]!.textContent).toContain('GILT5YBEES');
    expect(links[1]!.textContent).not.toContain('.NS');
    expect(links[1]!.textContent).toContain('+0.12');
    expect(screen.getByRole('link', { name: 'Positions' }).getAttribute('href')).toBe(
      '/trade-no-nav/futures/ok',
    );
    expect(screen.getByRole('note').textContent).toBe('Simulated market data');
  });

  it('warns when there is no data, and when a search matches nothing', () => {
    answer.data = { rows: [] };
    show(<FuturesScreen />);
    expect(screen.getByText('No futures data available')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Futures code'), { target: { value: '  zz ' } });
    fireEvent.submit(screen.getByLabelText('Futures code').closest('form')!);
    expect(inputs.at(-1)).toEqual({ market: 'FUTURE', code: 'zz' });
    expect(screen.getByText('No matching futures found')).toBeTruthy();
  });

  it('does not search an empty code: it warns and lists everything again', () => {
    answer.data = { rows: [row({})] };
    show(<FuturesScreen />);
    fireEvent.change(screen.getByLabelText('Futures code'), { target: { value: 'gc' } });
    fireEvent.submit(screen.getByLabelText('Futures code').closest('form')!);
    expect(inputs.at(-1)).toEqual({ market: 'FUTURE', code: 'gc' });
    fireEvent.change(screen.getByLabelText('Futures code'), { target: { value: '   ' } });
    act(() => {
      fireEvent.submit(screen.getByLabelText('Futures code').closest('form')!);
    });
    expect(toasts()).toEqual(['markets.lists.enterCode']);
    expect(inputs.at(-1)).toEqual({ market: 'FUTURE' });
  });

  it('shows the load failure with a retry, and a failed search as such', () => {
    answer.error = 'errors.network';
    show(<FuturesScreen />);
    expect(screen.getByRole('alert').textContent).toContain('Failed to load futures list');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalledOnce();
    fireEvent.change(screen.getByLabelText('Futures code'), { target: { value: 'gc' } });
    fireEvent.submit(screen.getByLabelText('Futures code').closest('form')!);
    expect(screen.getByRole('alert').textContent).toContain('Search failed');
  });
});

describe('treasury debt', () => {
  it('asks for market CGI and has its own warnings and positions link', () => {
    answer.data = { rows: [] };
    show(<TreasuryDebtScreen />);
    expect(inputs.at(-1)).toEqual({ market: 'CGI' });
    expect(screen.getByText('No treasury debt data available')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Positions' }).getAttribute('href')).toBe(
      '/trade-no-nav/treasury/ok',
    );
    fireEvent.change(screen.getByLabelText('Treasury debt code'), { target: { value: 'x' } });
    fireEvent.submit(screen.getByLabelText('Treasury debt code').closest('form')!);
    expect(screen.getByText('No matching treasury debt found')).toBeTruthy();
  });
});

describe('forex', () => {
  it('shows "Failed to load forex list" with a retry, and a failed search as "Search failed" (SPEC §8)', () => {
    answer.error = 'errors.network';
    show(<ForexScreen />);
    expect(screen.getByRole('alert').textContent).toContain('Failed to load forex list');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Currency pair code'), { target: { value: 'usd' } });
    fireEvent.submit(screen.getByLabelText('Currency pair code').closest('form')!);
    expect(inputs.at(-1)).toMatchObject({ code: 'usd', page: 1 });
    expect(screen.getByRole('alert').textContent).toContain('Search failed');
  });
});

/** A row of the every-market search (`marketSearch`). */
const found = (over: Partial<StockRow>): StockRow => ({
  id: 1,
  stock: 'GC=F',
  name: 'Gold',
  market: 'FUTURE',
  market_name: 'Futures',
  exchange_name: 'COMEX',
  region: 'US',
  decimals: 2,
  prasent: 4070.05,
  close_prices: 4093.9,
  percent_change: -0.58,
  change: -23.85,
  ...over,
});

/** The address the screen writes its search to. */
let address = '';
function Address() {
  address = useLocation().search;
  return null;
}

function showMarkets(at = '/markets') {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route path="/markets" element={<MarketsScreen />} />
      </Routes>
      <Address />
    </MemoryRouter>,
  );
}

/** The terms the screen has asked `marketSearch` for, in order, each once. */
const searched = () => [
  ...new Set(watches.filter((w) => w.name === 'marketSearch').map((w) => (w.input as { q: string }).q)),
];

describe('markets search', () => {
  it('is a field always in view, and finds futures and forex, each row a link with its star', () => {
    answers.marketSearch = {
      data: {
        rows: [
          found({}),
          found({
            id: 2,
            stock: 'EURUSD=X',
            name: 'EUR/USD',
            market: 'FOREX',
            market_name: 'Forex',
            exchange_name: 'FX',
            decimals: 4,
            prasent: 1.157,
            change: 0.0021,
            percent_change: 0.18,
          }),
        ],
      },
      error: null,
    };
    showMarkets('/markets?search=g');
    expect(screen.getByRole('searchbox', { name: 'Search instruments' })).toHaveProperty('value', 'g');
    expect(searched()).toEqual(['g']);
    expect(watches.find((w) => w.name === 'marketSearch')?.input).toEqual({ q: 'g', limit: 20 });
    // Not the stock list of one market: the every-market search.
    expect(watches.some((w) => w.name === 'stockList')).toBe(false);
    const results = screen.getByRole('list', { name: 'Search results' });
    const links = within(results).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      '/stock/GC%3DF/FUTURE/Gold',
      '/stock/EURUSD%3DX/FOREX/EUR%2FUSD',
    ]);
    expect(links[1]!.textContent).toContain('1.1570');
    expect(within(results).getByRole('button', { name: 'Favourite GC' })).toBeTruthy();
    expect(within(results).getByRole('button', { name: 'Favourite EURUSD' })).toBeTruthy();
  });

  it('says when nothing matches, and shows a failed search with a retry', () => {
    answers.marketSearch = { data: { rows: [] }, error: null };
    showMarkets('/markets?search=zzqx');
    expect(screen.getByText('No instrument matches "zzqx"')).toBeTruthy();
    cleanup();
    answers.marketSearch = { data: undefined, error: 'errors.network' };
    showMarkets('/markets?search=zzqx');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('searches 300 ms after the last keystroke: none before, one after, typing again starts over', () => {
    vi.useFakeTimers();
    try {
      answers.marketSearch = { data: { rows: [found({})] }, error: null };
      showMarkets();
      const field = screen.getByRole('searchbox', { name: 'Search instruments' });
      fireEvent.change(field, { target: { value: 'go' } });
      act(() => vi.advanceTimersByTime(299));
      expect(searched()).toEqual([]);
      expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(searched()).toEqual(['go']);
      expect(address).toBe('?search=go');
      // Typing again restarts the wait: nothing for 'gol' until 300 ms after the last key.
      fireEvent.change(field, { target: { value: 'gol' } });
      act(() => vi.advanceTimersByTime(200));
      fireEvent.change(field, { target: { value: 'gold' } });
      act(() => vi.advanceTimersByTime(299));
      expect(searched()).toEqual(['go']);
      act(() => vi.advanceTimersByTime(1));
      expect(searched()).toEqual(['go', 'gold']);
      // Spaces alone are no search: the region's lists come back and the address forgets it.
      fireEvent.change(field, { target: { value: '  ' } });
      act(() => vi.advanceTimersByTime(300));
      expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
      expect(address).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes the focus when Home's search button opens it, and not otherwise", () => {
    showMarkets('/markets?search=');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search instruments' }));
    cleanup();
    showMarkets('/markets');
    expect(document.activeElement).not.toBe(screen.getByRole('searchbox', { name: 'Search instruments' }));
  });
});

describe('market depth', () => {
  const depth = (book: DepthAnswer['book']): DepthAnswer => ({
    symbol: 'AAPL',
    decimals: 2,
    region: 'US',
    price: 231.5,
    book,
    open: 230,
    high: 232,
    low: 229.5,
    prev_close: 230.1,
    high_52w: 260,
    low_52w: 164.08,
    session: { open: true, opens_at: null, closes_at: 2 },
    as_of: 1,
  });

  it('says "depth not available" when the provider has no order book, rather than inventing one', () => {
    answers.depth = { data: depth(null), error: null };
    render(<DepthLadder symbol="AAPL" />);
    expect(watches.find((w) => w.name === 'depth')?.input).toEqual({ symbol: 'AAPL' });
    const card = screen.getByRole('region', { name: 'Market depth' });
    expect(card.textContent).toContain('Depth not available for this instrument');
    expect(within(card).queryAllByRole('table')).toHaveLength(0);
    expect(card.textContent).not.toContain('Spread');
  });

  it('shows both sides and the spread when there is a book (and then no such text)', () => {
    const level = (price: number, qty: number, total: number) => ({ price, qty, total });
    answers.depth = {
      data: depth({
        bids: [level(231.45, 300, 300), level(231.4, 500, 800)],
        asks: [level(231.55, 200, 200), level(231.6, 400, 600)],
        spread: 0.1,
      }),
      error: null,
    };
    render(<DepthLadder symbol="AAPL" />);
    const card = screen.getByRole('region', { name: 'Market depth' });
    expect(
      within(card)
        .getAllByRole('table')
        .map((t) => t.querySelector('caption')?.textContent),
    ).toEqual(['Bids', 'Asks']);
    expect(card.textContent).toContain('Spread 0.10');
    expect(card.textContent).toContain('231.45');
    expect(card.textContent).not.toContain('Depth not available');
  });
});
