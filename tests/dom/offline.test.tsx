import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERR } from '#shared/contract/define';
import type { Category, IndexCard, StockRow } from '#shared/contract/market';
import type { PortfolioSummary, PortfolioTotals } from '#shared/contract/portfolio';
import type { BillRow } from '#shared/contract/wallet';
import { PAGE_SIZE } from '#shared/rules';
import { usePortfolioSummary } from '../../src/screens/_parts/portfolio/parts';
import { useAccount } from '../../src/screens/Account/useAccount';
import { useAccountChanges } from '../../src/screens/AccountChanges/useAccountChanges';
import { useHoldings } from '../../src/screens/Holdings/useHoldings';
import { useHome } from '../../src/screens/Home/useHome';
import { useMarkets } from '../../src/screens/Markets/useMarkets';
import { useNews } from '../../src/screens/News/useNews';
import { useStockDetail } from '../../src/screens/StockDetail/useStockDetail';
import { useWatchlists } from '../../src/screens/Watchlists/useWatchlists';
import { useSession } from '../../src/store/session';
import { fake } from '../support/fake-worker';
import { type Kept, kept, reloadSilent, sent, until, useFakeTimers, wait } from '../support/offline-worker';

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/**
 * Each main screen's hook after a reload with the server silent: the real sync worker in
 * this process, its device store holding what a session that visited only Home kept, and a transport
 * that never answers. What the device holds shows at once, as last known with its time; what it
 * never held loads until the worker finds the server silent, then says "not loaded yet" — never an
 * endless placeholder.
 */
const USER = 7;
/** When the session before the reload heard the server last. */
const AT = Date.UTC(2026, 10, 24, 6, 0, 0);
/** The reload, a minute later. */
const NOW = AT + 60_000;
/** Longer than the worker takes to call a silent server unreachable (network.ts: 2.5 s). */
const SILENT_MS = 3_000;

type Worker = Awaited<ReturnType<typeof reloadSilent>>;

/** Lets fake time pass until the worker has found the server silent (its requests unanswered). */
const untilSilent = ({ ctx }: Worker) =>
  until(() => expect(ctx.connection.view().state).toBe('unreachable'), { advance: 100 });

const totals = (value: string, positions: number): PortfolioTotals => ({
  invested: value,
  value,
  pnl: '0.00',
  pnl_percent: 0,
  today_pnl: '0.00',
  today_percent: 0,
  positions,
  as_of: AT,
});
const SUMMARY: PortfolioSummary = {
  overall: totals('2412.37', 1),
  by_type: {
    stock: totals('2412.37', 1),
    forex: totals('0.00', 0),
    futures: totals('0.00', 0),
    treasury: totals('0.00', 0),
  },
  hero: {
    available: '97587.63',
    reserved: { orders: '0.00', ipo: '0.00', withdrawals: '0.00', total: '0.00' },
    holdings: '2412.37',
    funds: '0.00',
    loans: '0.00',
    total: '100000.00',
  },
  today: '0.00',
  today_percent: 0,
  as_of: AT,
};
const CATEGORIES: Category[] = [
  { category_id: 1, category_code: 'NSE', category_name: 'India · NSE', index_symbol: '^NSEI', stocks: [] },
  { category_id: 3, category_code: 'US', category_name: 'United States', index_symbol: '^GSPC', stocks: [] },
];
const index = (symbol: string, name: string, category: string, price: number): IndexCard => ({
  symbol,
  name,
  category_code: category,
  prasent: price,
  change: 1,
  percent_change: 0.01,
  spark: [price - 1, price],
  as_of: AT,
});
const INDICES = [
  index('^NSEI', 'NIFTY 50', 'NSE', 26790.74),
  index('^NSEBANK', 'NIFTY Bank', 'NSE', 67077.52),
  index('^GSPC', 'S&P 500', 'US', 7830.54),
];
const stock = (id: number, symbol: string, name: string, price: number): StockRow => ({
  id,
  stock: symbol,
  name,
  market: 'IN',
  market_name: 'India',
  exchange_name: 'NSE',
  region: 'IN',
  decimals: 2,
  prasent: price,
  close_prices: price,
  percent_change: 0.5,
  change: 1,
});

/** What a session that opened only Home kept (workers/answers.ts), as the demo server answers it. */
const HOME_ONLY: Kept[] = [
  kept('config', {}, [{ tag: 'currency_unit', value: 'INR' }], AT),
  kept('categoryList', {}, { categories: CATEGORIES }, AT),
  kept('indexList', {}, { rows: INDICES }, AT),
  kept(
    'userInfo',
    {},
    {
      id: USER,
      user: '9876543210',
      no: 'B10000007',
      img: null,
      total: '100000.00',
      money: '97587.63',
      loan: '0.00',
      has_fund_password: false,
      frozen: false,
    },
    AT,
  ),
  kept('portfolioSummary', {}, SUMMARY, AT),
];

/** A screen's hook at `url` (its route `pattern`), as the router gives it its parameters. */
function at(url: string, pattern = url.split('?')[0]!) {
  return ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path={pattern} element={children} />
      </Routes>
    </MemoryRouter>
  );
}

/** Loading now, and "not loaded yet" once the worker has found the server silent. */
async function notLoadedOnceSilent(
  worker: Worker,
  read: () => { loading: boolean; error: string | null; data?: unknown },
) {
  expect(read().loading).toBe(true);
  await untilSilent(worker);
  await until(() => {
    expect(read()).toMatchObject({ loading: false, error: ERR.notLoaded });
    expect(read().data).toBeUndefined();
  });
}

/** Shown at once from the device, marked as last known with the time it was fetched. */
function lastKnown(w: { data?: unknown; source: string | null; stale: boolean; updatedAt: number | null }) {
  expect(w.data).toBeDefined();
  expect(w).toMatchObject({ source: 'device', stale: true, updatedAt: AT });
}

beforeEach(() => {
  fake.reset();
  localStorage.clear();
  useFakeTimers(NOW);
  useSession.setState({ token: 'token', userInfo: { id: USER, user: '9876543210', login: AT } });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a reload with the server silent, after a session that visited only Home', () => {
  it('Home: the account, categories and index cards at once, as last known', async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    const { result } = renderHook(() => useHome());
    await until(() => {
      const { info, categories, indices } = result.current;
      for (const w of [info, categories, indices]) lastKnown(w);
      expect(result.current.cards.map((c) => c.card.symbol)).toEqual(['^NSEI', '^GSPC']);
    });
    const { info } = result.current;
    expect(info.data?.total).toBe('100000.00');
    // INR: no news on Home, so none asked for.
    expect(result.current.showNews).toBe(false);
    await untilSilent(worker);
    expect(result.current.info).toMatchObject({ data: info.data, stale: true });
  });

  it('Account: the money at once; its market list, never fetched, is not loaded rather than loading forever', async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    const { result } = renderHook(() => ({ ...useAccount(), portfolio: usePortfolioSummary() }));
    await until(() => {
      lastKnown(result.current.info);
      lastKnown(result.current.portfolio);
    });
    expect(result.current.info.data).toMatchObject({ money: '97587.63', no: 'B10000007' });
    expect(result.current.portfolio.data?.overall.value).toBe('2412.37');
    await notLoadedOnceSilent(worker, () => result.current.markets);
    // What was on screen stays, still marked; the silence is not an error over it.
    lastKnown(result.current.info);
  });

  it('Account: its three markets are taken from a longer list of the same call the device kept', async () => {
    const popular = [1, 2, 3, 4, 5].map((i) => stock(i, `S${i}.NS`, `Stock ${i}`, 100 + i));
    await reloadSilent(USER, [
      ...HOME_ONLY,
      kept('stockList', { page: 1, limit: 5 }, { rows: popular, count: 40 }, AT),
    ]);
    const { result } = renderHook(() => useAccount());
    await until(() => lastKnown(result.current.markets));
    expect(result.current.markets.data).toEqual({ rows: popular.slice(0, 3), count: 40 });
  });

  it("Markets: the categories, and the category's index cards taken from all of them", async () => {
    await reloadSilent(USER, HOME_ONLY);
    const { result } = renderHook(() => useMarkets(), { wrapper: at('/markets') });
    // The index cards are asked for once the categories have named the first one.
    await until(() => {
      lastKnown(result.current.categories);
      lastKnown(result.current.indices);
      expect(result.current.rows.map((r) => r.symbol)).toEqual(['^NSEI', '^NSEBANK']);
    });
    expect(result.current.category?.category_code).toBe('NSE');
    expect(result.current.index?.symbol).toBe('^NSEI');
  });

  it('Watchlists: the index cards at once; the favourites, never fetched, are not loaded', async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    const { result } = renderHook(() => useWatchlists(), { wrapper: at('/watchlists') });
    await until(() => lastKnown(result.current.indices));
    await notLoadedOnceSilent(worker, () => ({
      ...result.current.first,
      data: result.current.first.items[0],
    }));
  });

  it('Trade: the portfolio totals at once; the holdings list, never fetched, is not loaded', async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    const { result } = renderHook(() => ({ ...useHoldings(), summary: usePortfolioSummary() }), {
      wrapper: at('/trade'),
    });
    await until(() => lastKnown(result.current.summary));
    expect(result.current.summary.data?.by_type.stock.positions).toBe(1);
    await notLoadedOnceSilent(worker, () => result.current.first);
  });

  it('Account changes: not loaded when never fetched; the kept page at once when it was', async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    const fresh = renderHook(() => useAccountChanges(), { wrapper: at('/account/changes') });
    await notLoadedOnceSilent(worker, () => ({
      ...fresh.result.current.bills,
      data: fresh.result.current.bills.rows,
    }));
    fresh.unmount();

    const bill: BillRow = {
      id: 9,
      type: 'expense',
      reason: 'buyStock',
      amount: '2412.37',
      balance: '97587.63',
      symbol: 'RELIANCE.NS',
      created_at: AT,
    };
    await reloadSilent(USER, [
      ...HOME_ONLY,
      kept('bill', { type: 'all', page: 1, limit: PAGE_SIZE }, { rows: [bill], count: 1 }, AT),
    ]);
    const { result } = renderHook(() => useAccountChanges(), { wrapper: at('/account/changes') });
    await until(() => {
      expect(result.current.bills.rows).toEqual([bill]);
      expect(result.current.bills).toMatchObject({ source: 'device', stale: true, updatedAt: AT });
    });
  });

  it("Stock detail: an index's last price from Home's cards; its quote, never fetched, is not loaded", async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    const { result } = renderHook(() => useStockDetail(), {
      wrapper: at('/stock/%5ENSEI/INDEX/NIFTY%2050', '/stock/:code/:market/:name'),
    });
    await until(() =>
      expect(result.current.live).toMatchObject({ symbol: '^NSEI', price: 26790.74, asOf: AT }),
    );
    await notLoadedOnceSilent(worker, () => result.current.head);
    await until(() =>
      expect(result.current.sameMarket).toMatchObject({ loading: false, error: ERR.notLoaded }),
    );
  });

  it('News: not loaded when never fetched, rather than loading forever', async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    const { result } = renderHook(() => useNews(), { wrapper: at('/news') });
    await notLoadedOnceSilent(worker, () => result.current.list);
  });

  it('asks the silent server once per poll, then waits for it: no request piles up behind the silence', async () => {
    const worker = await reloadSilent(USER, HOME_ONLY);
    renderHook(() => useAccount());
    await untilSilent(worker);
    const first = sent.length;
    expect(first).toBeGreaterThan(0);
    await wait(2 * SILENT_MS);
    // Only the probes (one at a time, backing off) went out since.
    expect(sent.length - first).toBeLessThanOrEqual(3);
  });
});
