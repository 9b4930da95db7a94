import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewsItem } from '#shared/contract/content';
import type { IndexCard, StockRow } from '#shared/contract/market';
import type { AccountHero, PortfolioSummary, PortfolioTotals, Statement } from '#shared/contract/portfolio';
import type { HoldingRow } from '#shared/contract/trading';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { PATHS } from '../../src/paths';
import { Allocation } from '../../src/screens/_parts/portfolio/PortfolioPanel';
import { Signed, TotalsCard } from '../../src/screens/_parts/portfolio/parts';
import AccountScreen from '../../src/screens/Account/AccountScreen';
import HoldingsScreen from '../../src/screens/Holdings/HoldingsScreen';
import HomeScreen from '../../src/screens/Home/HomeScreen';
import StatementScreen from '../../src/screens/Statement/StatementScreen';
import { fake } from '../support/fake-worker';

/**
 * The portfolio's parts (Trade tab, Home, Account): figures as the server sent them, signs,
 * shares; and the screens that show them (Account, Holdings, Home, Statement) as a user sees them
 * from the worker's answers.
 */

let config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);
/** The worker's answer per watch name; a name without one is still on its way. */
let answers: Record<string, unknown> = {};
/** The failed refresh of a watch name, as its message key. */
let failures: Record<string, string> = {};
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return {
    useWatch: (name: string, input: unknown) =>
      watchResult(input === null ? undefined : answers[name], {
        error: failures[name] ?? null,
        source: answers[name] === undefined ? null : 'network',
      }),
  };
});

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  fake.reset();
  answers = {};
  failures = {};
  config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
});
afterEach(cleanup);

const TOTALS: PortfolioTotals = {
  invested: '15000.00',
  value: '15600.00',
  pnl: '600.00',
  pnl_percent: 4,
  today_pnl: '-1200.00',
  today_percent: -7.69,
  positions: 1,
  as_of: Date.now(),
};
const ZERO: PortfolioTotals = {
  ...TOTALS,
  invested: '0.00',
  value: '0.00',
  pnl: '0.00',
  pnl_percent: 0,
  today_pnl: '0.00',
  today_percent: 0,
  positions: 0,
  as_of: 0,
};

describe('portfolio parts', () => {
  it('shows value, invested, total and today’s P&L with signs, the time and the disclosure', () => {
    render(<TotalsCard title="Summary" totals={TOTALS} updatedAt={Date.now()} stale={false} />);
    expect(screen.getByTestId('portfolio-value').textContent).toBe('₹15,600.00');
    expect(screen.getByTestId('portfolio-invested').textContent).toBe('₹15,000.00');
    expect(screen.getByTestId('portfolio-pnl').textContent).toBe('▲+₹600.00 (+4.00%)');
    expect(screen.getByTestId('portfolio-today').textContent).toBe('▼-₹1,200.00 (-7.69%)');
    expect(screen.getByText('1 position')).toBeTruthy();
    expect(screen.getByText(/Unrealised returns/)).toBeTruthy();
    expect(document.querySelector('[data-tier]')).not.toBeNull();
  });

  it('zeros on an empty account, never a blank', () => {
    render(<TotalsCard title="Summary" totals={ZERO} updatedAt={Date.now()} stale={false} />);
    expect(screen.getByTestId('portfolio-value').textContent).toBe('₹0.00');
    expect(screen.getByTestId('portfolio-pnl').textContent).toBe('₹0.00 (0.00%)');
    expect(screen.getByText('0 positions')).toBeTruthy();
  });

  it('keeps a signed figure in the text colour: the sign and arrow carry the direction', () => {
    render(<Signed amount="-5.00" currency={config.currency} />);
    const el = screen.getByText((_, node) => node?.getAttribute('data-sign') === '-1');
    expect(el.className).not.toMatch(/down|up/);
  });

  it('splits the total by type with each part’s amount and share', () => {
    const summary: PortfolioSummary = {
      overall: TOTALS,
      by_type: { stock: { ...TOTALS, value: '15600.00' }, forex: ZERO, futures: ZERO, treasury: ZERO },
      hero: hero({ available: '84400.00', holdings: '15600.00', total: '100000.00' }),
      today: '-1200.00',
      today_percent: -1.19,
      as_of: Date.now(),
    };
    render(
      <MemoryRouter>
        <Allocation summary={summary} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('listitem', { name: 'Stocks: ₹15,600.00, 15.6%' })).toBeTruthy();
    expect(screen.getByRole('listitem', { name: 'Cash: ₹84,400.00, 84.4%' })).toBeTruthy();
    expect(screen.queryByRole('listitem', { name: /^Forex/ })).toBeNull();
  });
});

function hero(lines: Partial<AccountHero>): AccountHero {
  return {
    available: '0.00',
    reserved: { orders: '0.00', ipo: '0.00', withdrawals: '0.00', total: '0.00' },
    holdings: '0.00',
    funds: '0.00',
    loans: '0.00',
    total: '0.00',
    ...lines,
  };
}
const SUMMARY: PortfolioSummary = {
  overall: TOTALS,
  by_type: { stock: TOTALS, forex: ZERO, futures: ZERO, treasury: ZERO },
  hero: hero({ available: '10000.00', holdings: '15600.00', total: '25600.00' }),
  today: '-1200.00',
  today_percent: -4.48,
  as_of: Date.now(),
};
const USER = {
  id: 1,
  user: '9876543210',
  no: 'BRS000123',
  img: null,
  total: '25600.00',
  money: '10000.00',
  loan: '0.00',
  has_fund_password: true,
  frozen: false,
};
const stock = (over: Partial<StockRow>): StockRow => ({
  id: 1,
  stock: 'RELIANCE.NS',
  name: 'Reliance Industries',
  market: 'IN',
  market_name: 'India',
  exchange_name: 'NSE',
  region: 'IN',
  decimals: 2,
  prasent: 2950.5,
  close_prices: 2900,
  percent_change: 1.74,
  change: 50.5,
  ...over,
});
const HOLDING: HoldingRow = {
  stock: 'TCS.NS',
  name: 'Tata Consultancy Services',
  market: 'IN',
  region: 'IN',
  decimals: 2,
  count: 5,
  available: 5,
  avg_price: 3000,
  cost: '15000.00',
  prasent: 3120,
  value: '15600.00',
  profit: '600.00',
  profit_percent: 4,
  today_pnl: '-1200.00',
  today_percent: -7.14,
  as_of: Date.now(),
  lot: null,
};

const show = (element: React.ReactElement, at = '/') =>
  render(<MemoryRouter initialEntries={[at]}>{element}</MemoryRouter>);

describe('Account screen', () => {
  it('shows the money, the holdings value and the markets from the worker', () => {
    answers = {
      userInfo: USER,
      portfolioSummary: SUMMARY,
      stockList: {
        rows: [stock({}), stock({ stock: 'INFY.NS', name: 'Infosys', prasent: 1510, percent_change: -0.5 })],
      },
    };
    show(<AccountScreen />);
    expect(screen.getByTestId('total-assets').textContent).toBe('₹25,600.00');
    expect(screen.getByTestId('available-balance').textContent).toBe('₹10,000.00');
    expect(screen.getByTestId('hero-holdings').textContent).toBe('₹15,600.00');
    // Nothing reserved, no funds, no loan: those lines are not drawn.
    expect(screen.queryByTestId('hero-reserved')).toBeNull();
    expect(screen.queryByTestId('hero-loans')).toBeNull();
    expect(screen.getByText('BRS000123')).toBeTruthy();
    const markets = screen.getByRole('region', { name: 'Markets' });
    expect(within(markets).getAllByRole('link', { name: /Reliance Industries|Infosys/ })).toHaveLength(2);
    // The price is coloured by its direction, a class the global stylesheet defines.
    expect(within(markets).getByText('2,950.50').className).toMatch(/\bup\b/);
    expect(within(markets).getByText('1,510.00').className).toMatch(/\bdown\b/);
    expect(screen.getByRole('link', { name: 'Recharge' }).getAttribute('href')).toBe(PATHS.recharge);
  });

  it('shows every line the total is the sum of: reserved with what holds it, funds, loans due', () => {
    answers = {
      userInfo: USER,
      portfolioSummary: {
        ...SUMMARY,
        hero: hero({
          available: '10000.00',
          reserved: { orders: '1969.10', ipo: '20000.00', withdrawals: '0.00', total: '21969.10' },
          holdings: '15600.00',
          funds: '10000.00',
          loans: '5000.00',
          total: '52569.10',
        }),
      },
    };
    show(<AccountScreen />);
    const lines = screen.getByTestId('hero-lines');
    const signed = [...lines.querySelectorAll('[data-amount]')].map((el) => el.getAttribute('data-amount'));
    expect(signed).toEqual(['10000.00', '21969.10', '15600.00', '10000.00', '-5000.00']);
    expect(screen.getByTestId('hero-reserved').textContent).toBe('₹21,969.10');
    expect(within(lines).getByText('Pending orders ₹1,969.10 · IPO applications ₹20,000.00')).toBeTruthy();
    expect(screen.getByTestId('hero-loans').textContent).toBe('₹5,000.00');
    expect(within(lines).getByText('Loans due')).toBeTruthy();
    expect(screen.getByTestId('total-assets').textContent).toBe('₹52,569.10');
  });

  it('says why the balance is missing when it could not be loaded, and offers a retry', () => {
    failures = { portfolioSummary: 'errors.network' };
    show(<AccountScreen />);
    expect(screen.getByTestId('total-assets').textContent).toBe('—');
    expect(screen.getByRole('alert').textContent).toContain('Network error');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});

describe('Holdings screen', () => {
  it('shows the summary and each position with its quantity, value and signed profit', () => {
    answers = { portfolioSummary: SUMMARY, holdings: { rows: [HOLDING], count: 1 } };
    show(<HoldingsScreen />, '/trade');
    expect(screen.getByTestId('portfolio-value').textContent).toBe('₹15,600.00');
    const table = screen.getByRole('region', { name: 'Stocks' });
    expect(within(table).getByText('Tata Consultancy Services')).toBeTruthy();
    expect(within(table).getByText('₹15,600.00')).toBeTruthy();
    expect(within(table).getByText('+4.00%').className).toMatch(/\bup\b/);
  });

  it('lists a block lot with its kind and its lock-in, which opens the lot sale', () => {
    answers = {
      portfolioSummary: SUMMARY,
      holdings: {
        rows: [
          HOLDING,
          {
            ...HOLDING,
            stock: 'RELIANCE.NS',
            name: 'Reliance Industries',
            count: 100,
            available: 0,
            // 8 December 2026, 09:15 IST.
            lot: { no: 'B1LOT', mold: 'bulk', unlock_at: Date.UTC(2026, 11, 8, 3, 45) },
          },
        ],
        count: 2,
      },
    };
    show(<HoldingsScreen />, '/trade');
    const lot = screen.getByRole('button', { name: /^Reliance Industries RELIANCE Block lot 100 / });
    expect(within(lot).getByTestId('lot-lock').textContent).toBe('100 locked until 08/12, 09:15 IST');
    expect(lot.textContent).toContain('Opens the lot sale');
    // The position beside it still opens the ticket.
    expect(screen.getByRole('link', { name: /^Tata Consultancy Services TCS 5 / })).toBeTruthy();
  });

  it('says there is nothing held yet, and where to find something', () => {
    answers = { portfolioSummary: SUMMARY, holdings: { rows: [], count: 0 } };
    show(<HoldingsScreen />, '/trade');
    expect(screen.getByText('You hold no stocks')).toBeTruthy();
  });
});

describe('Home screen', () => {
  const index: IndexCard = {
    symbol: '^NSEI',
    name: 'Nifty 50',
    category_code: 'IN',
    prasent: 24500.25,
    change: -120.5,
    percent_change: -0.49,
    spark: [],
    as_of: Date.now(),
  };
  const category = {
    category_id: 1,
    category_code: 'IN',
    category_name: 'India',
    index_symbol: '^NSEI',
    stocks: [],
  };
  const news = (id: number): Omit<NewsItem, 'content'> => ({
    id,
    title: `Headline ${id}`,
    subhead: '',
    img: null,
    created_at: Date.UTC(2026, 0, id),
    updated_at: Date.UTC(2026, 0, id),
  });

  it('shows each category’s index card and, in INR, no news', () => {
    answers = {
      userInfo: USER,
      portfolioSummary: SUMMARY,
      categoryList: { categories: [category] },
      indexList: { rows: [index] },
    };
    show(<HomeScreen />);
    const indices = screen.getByRole('list', { name: 'Market indices' });
    expect(within(indices).getByText('Nifty 50')).toBeTruthy();
    expect(within(indices).getByText('24,500.25')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Latest news' })).toBeNull();
  });

  it('previews the three latest news where the currency is not INR', () => {
    config = parseConfig([{ tag: 'currency_unit', value: 'USD' }]);
    answers = { newsList: { rows: [1, 2, 3, 4, 5].map(news), count: 5 } };
    show(<HomeScreen />);
    const section = screen.getByRole('region', { name: 'Latest news' });
    expect(
      within(section)
        .getAllByRole('link', { name: /Headline/ })
        .map((a) => a.textContent),
    ).toEqual([
      expect.stringContaining('Headline 1'),
      expect.stringContaining('Headline 2'),
      expect.stringContaining('Headline 3'),
    ]);
  });
});

describe('Statement screen', () => {
  const SOLD = {
    sold: 5,
    cost: '15000.00',
    proceeds: '15600.00',
    realised: '600.00',
    charges: '20.00',
    net: '580.00',
  };
  const statement = (rows: Statement['rows']): Statement => ({
    fy: 2025,
    years: [2025, 2024],
    from: 0,
    to: 1,
    rows,
    totals: SOLD,
    as_of: Date.now(),
  });

  it('shows the year’s totals and one card per instrument sold', () => {
    answers = {
      portfolioStatement: statement([
        // The year's one instrument: its figures are the totals.
        { symbol: 'TCS.NS', name: 'Tata Consultancy Services', ...SOLD },
      ]),
    };
    show(<StatementScreen />);
    const totals = screen.getByTestId('statement-totals');
    expect(within(totals).getByText('₹20.00')).toBeTruthy();
    expect(within(totals).getAllByText('▲').length).toBe(2);
    expect(screen.getByRole('list', { name: /2025/ })).toBeTruthy();
    expect(screen.getByText('TCS')).toBeTruthy();
  });

  it('says the year has no sales, and shows the failure with a retry when nothing arrived', () => {
    answers = { portfolioStatement: statement([]) };
    const { unmount } = show(<StatementScreen />);
    expect(screen.getByText('No sales or charges in this financial year')).toBeTruthy();
    unmount();
    answers = {};
    failures = { portfolioStatement: 'errors.network' };
    show(<StatementScreen />);
    expect(screen.getByRole('alert').textContent).toContain('Network error');
    expect(screen.queryByTestId('statement-totals')).toBeNull();
  });
});
