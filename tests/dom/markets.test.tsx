import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketRow } from '#shared/contract/market';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import ForexScreen from '../../src/screens/Forex/ForexScreen';
import FuturesScreen from '../../src/screens/Futures/FuturesScreen';
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
// Rows carry a star (issue 14): what the device knows of favourites, none here.
vi.mock('../../src/api/favourites', () => ({ useFavouriteMap: () => ({}) }));

const inputs: unknown[] = [];
let answer: { data: { rows: MarketRow[] } | undefined; error: string | null } = {
  data: undefined,
  error: null,
};
const reload = vi.fn();
vi.mock('../../src/api/hooks', () => ({
  useWatch: (_name: string, input: unknown) => {
    inputs.push(input);
    return {
      ...answer,
      loading: false,
      updatedAt: 1,
      source: 'network',
      stale: false,
      reload,
    };
  },
}));

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
