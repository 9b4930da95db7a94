import { act, cleanup, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fund, FundNav, FundOrder, FundPosition, FundPositions } from '#shared/contract/funds';
import { parseConfig } from '../../src/api/useConfig';
import { changeLanguage, initI18n } from '../../src/i18n/index';
import { useFundBuy } from '../../src/screens/_parts/funds/useFundBuy';
import { useFundRedeem } from '../../src/screens/_parts/funds/useFundRedeem';
import FundDetailScreen from '../../src/screens/FundDetail/FundDetailScreen';
import FundInvestmentScreen from '../../src/screens/FundInvestment/FundInvestmentScreen';
import FundOrdersScreen from '../../src/screens/FundOrders/FundOrdersScreen';
import { useUi } from '../../src/store/ui';
import { fake } from '../support/fake-worker';

/** Mutual funds as the user meets them: the list, a fund's page, the sheets and the orders. */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/** What each watched call answers (by contract name), and the inputs it was watched with. */
let watched: Record<string, unknown> = {};
const watchedWith: Array<{ name: string; input: unknown }> = [];
/** Calls whose answer is the device's last one, not live. */
let stale = new Set<string>();
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return {
    useWatch: (name: string, input: unknown) => {
      watchedWith.push({ name, input });
      const result = watchResult(watched[name], { source: stale.has(name) ? 'device' : 'network' });
      return { ...result, stale: stale.has(name), updatedAt: Date.parse('2026-12-04T10:00:00Z') };
    },
  };
});

const toasts = () => useUi.getState().toasts.map((t) => [t.text, t.params]);

const LIQUID: Fund = {
  id: 1,
  name: 'Bourse Liquid Fund',
  min_return: 6.53,
  max_return: 7.08,
  investment_period: 365,
  amount: '500.00',
  issue_amount: '0.00',
  sold_amount: '0.00',
  status: 1,
  manager: 'Bourse Asset Management',
  risk: 2,
  category: 'liquid',
  nav: '1798.6274',
  nav_date: '2026-12-04',
  nav_change: '0.02',
  returns: { y1: '6.92', y3: '6.86', since_launch: '6.80' },
  expense_ratio: '0.20',
  exit_load: { percent: '0.007', days: 7 },
  launched_on: '2018-01-02',
  next_nav: {
    date: '2026-12-07',
    cutoff_at: Date.parse('2026-12-07T15:00:00+05:30'),
    published_by: Date.parse('2026-12-07T21:00:00+05:30'),
  },
};
const EQUITY: Fund = {
  ...LIQUID,
  id: 6,
  name: 'Meridian Infrastructure Fund',
  category: 'equity',
  risk: 6,
  nav: '16.6493',
  nav_change: '-1.35',
  returns: { y1: '-9.65', y3: null, since_launch: '10.02' },
  exit_load: { percent: '0.5', days: 30 },
  amount: '1000.00',
};
const POSITION: FundPosition = {
  fund_id: 1,
  name: 'Bourse Liquid Fund',
  category: 'liquid',
  units: '5.766',
  free_units: '5.766',
  nav: '1798.6274',
  nav_date: '2026-12-04',
  value: '10370.89',
  invested: '10000.00',
  gain: '370.89',
  pending: '0.00',
};
const POSITIONS: FundPositions = {
  rows: [POSITION],
  value: '10370.89',
  invested: '10000.00',
  gain: '370.89',
  pending: '2500.00',
  total: '12870.89',
};

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  watched = {};
  stale = new Set();
  watchedWith.length = 0;
  fake.reset();
  // The worker draws a chart's line (src/api/sparkline.ts).
  fake.worker.sparklines = (async (series: number[][]) =>
    series.map(() => ({ line: 'M0 0L1 1', area: 'M0 0L1 1Z' }))) as never;
  useUi.setState({ toasts: [] });
});
afterEach(async () => {
  cleanup();
  await changeLanguage('en');
});

describe('the funds list', () => {
  it('shows each scheme at its NAV with yearly returns from its history, the disclosure beside them, and no promise', () => {
    watched = { fundList: { rows: [LIQUID, EQUITY], count: 2 }, fundPositions: POSITIONS };
    render(
      <MemoryRouter>
        <FundInvestmentScreen />
      </MemoryRouter>,
    );
    const [liquid, equity] = screen.getAllByRole('listitem');
    expect(liquid!.textContent).toContain('NAV of 04/12/2026');
    expect(liquid!.textContent).toContain('1,798.6274');
    expect(liquid!.textContent).toContain('+0.02%');
    expect(liquid!.textContent).toContain('1Y return6.92%');
    expect(liquid!.textContent).toContain('3Y p.a.6.86%');
    expect(liquid!.textContent).toContain('Low to moderate risk');
    expect(liquid!.textContent).toContain('Expense ratio 0.20%');
    expect(liquid!.textContent).toContain('Min. investment ₹500');
    expect(within(liquid!).getByTestId('fund-holding').textContent).toBe('You hold 5.766 units · ₹10,370.89');
    // A fund not three years old says so; a fall has its sign.
    expect(equity!.textContent).toContain('3Y p.a.Not yet');
    expect(equity!.textContent).toContain('1Y return−9.65%');
    expect(equity!.textContent).toContain('−1.35%');
    expect(equity!.textContent).toContain('Very high risk');
    // The regulator's line stands beside the returns.
    expect(screen.getByTestId('fund-disclosure').textContent).toContain(
      'Mutual fund investments are subject to market risks, read all scheme related documents carefully.',
    );
    expect(screen.getByTestId('fund-disclosure').textContent).toContain('Past performance is not indicative');
    // What the user has in funds, and what waits for its NAV.
    const totals = screen.getByTestId('fund-totals');
    expect(totals.textContent).toContain('Current value₹10,370.89');
    expect(totals.textContent).toContain('Invested₹10,000.00');
    expect(totals.textContent).toContain('+₹370.89');
    expect(totals.textContent).toContain('₹2,500.00 awaiting NAV');
    // Nothing reads as a deposit: no subscribed bar, no maturity, no promised amount.
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(document.body.textContent).not.toMatch(/subscribed|maturity|paid automatically|p\.a\. –/i);
    expect(screen.getByRole('link', { name: 'Details of Bourse Liquid Fund' }).getAttribute('href')).toBe(
      '/fund-investment/1',
    );
  });

  it('the Invest sheet tells when units are priced and what is taken, and places the order the server answers', async () => {
    watched = { fundList: { rows: [LIQUID], count: 1 } };
    render(
      <MemoryRouter>
        <FundInvestmentScreen />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Invest in Bourse Liquid Fund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invest in Bourse Liquid Fund' });
    expect(dialog.textContent).toContain('Units at the NAV of 07/12/2026, published by Mon 21:00 IST');
    expect(dialog.textContent).toContain("Orders before 15:00 IST on a business day get that day's NAV");
    expect(dialog.textContent).toContain('Exit load0.007% within 7 days');
    expect(dialog.textContent).toContain('Expense ratio0.20% a year');
    expect(dialog.textContent).toContain('No amount is promised');
    expect(within(dialog).getByTestId('fund-disclosure')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '10000' } });
    // 0.005 % stamp duty of ₹10,000.
    expect(dialog.textContent).toContain('Stamp duty (0.005%)₹0.50');
    fake.answers = [{ ok: true, data: { nav_date: '2026-12-07', status: 'active' } }];
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Invest ₹10,000' }));
    });
    expect(fake.calls.map((c) => [c.name, c.input])).toEqual([
      ['fundPurchase', { project_id: 1, amount: 10000 }],
    ]);
    expect(toasts()).toEqual([['fund.placed', { name: 'Bourse Liquid Fund', date: '07/12/2026' }]]);
    expect(screen.queryByRole('dialog')).toBeNull();
    // SPEC §4: the Invest buttons wait a moment after a purchase.
    expect(
      screen.getByRole('button', { name: 'Invest in Bourse Liquid Fund' }).hasAttribute('disabled'),
    ).toBe(true);
  });
});

describe('the buy and redeem sheets’ hooks', () => {
  it('a purchase: whole rupees, at least the minimum, stamp duty by the server’s rule; nothing sent below it', async () => {
    const done = vi.fn();
    const { result } = renderHook(() => useFundBuy(EQUITY, done));
    expect(result.current.text).toBe('1000');
    act(() => result.current.change('12,345.67'));
    expect(result.current.text).toBe('1234567');
    act(() => result.current.change('999'));
    expect(result.current.error).toBe('The minimum for this fund is ₹1,000');
    expect(result.current.valid).toBe(false);
    await act(() => result.current.submit());
    expect(fake.calls).toEqual([]);
    act(() => result.current.change('12345'));
    // 0.005 % of ₹12,345.00 = 0.61725 → ₹0.62 (HALF_UP).
    expect(result.current.stampMinor).toBe(62);
    fake.answers = [{ ok: false, error: 'errors.fundClosed', status: 400 }];
    await act(() => result.current.submit());
    expect(toasts()).toEqual([['errors.fundClosed', undefined]]);
    expect(done).not.toHaveBeenCalled();
  });

  it('a redemption: units to three decimals or all the free ones, never more, with a guide at the last NAV', async () => {
    const done = vi.fn();
    const { result } = renderHook(() => useFundRedeem(LIQUID, { ...POSITION, free_units: '5.000' }, done));
    act(() => result.current.change('2.5'));
    // 2.5 units × 1,798.6274 = 4,496.5685 → ₹4,496.57, a guide only.
    expect(result.current.estimateMinor).toBe(449_657);
    act(() => result.current.change('2.12345'));
    expect(result.current.text).toBe('2.123');
    act(() => result.current.change('6'));
    expect(result.current.error).toBe('You have 5.000 units free to redeem');
    await act(() => result.current.submit());
    expect(fake.calls).toEqual([]);
    act(() => result.current.chooseAll());
    expect(result.current.text).toBe('5.000');
    fake.answers = [{ ok: true, data: { nav_date: '2026-12-07' } }];
    await act(() => result.current.submit());
    expect(fake.calls.map((c) => [c.name, c.input])).toEqual([['fundRedeem', { project_id: 1, all: true }]]);
    expect(done).toHaveBeenCalled();
  });
});

describe('a fund’s page', () => {
  const NAV: FundNav = {
    id: 1,
    range: '1y',
    points: [
      { date: '2025-12-04', nav: 1682.1 },
      { date: '2026-06-04', nav: 1738.2 },
      { date: '2026-12-04', nav: 1798.6274 },
    ],
    change: '6.92',
  };
  function page() {
    return render(
      <MemoryRouter initialEntries={['/fund-investment/1']}>
        <Routes>
          <Route path="/fund-investment/:id" element={<FundDetailScreen />} />
        </Routes>
      </MemoryRouter>,
    );
  }

  it('shows the NAV history by range, returns with the disclosure, the riskometer, costs and the units held', () => {
    watched = { fundList: { rows: [LIQUID], count: 1 }, fundNav: NAV, fundPositions: POSITIONS };
    page();
    expect(screen.getByTestId('fund-nav').textContent).toBe('1,798.6274');
    expect(screen.getByTestId('fund-nav-change').textContent).toBe('+6.92% over this period');
    expect(watchedWith.filter((w) => w.name === 'fundNav').at(-1)?.input).toEqual({ id: 1, range: '1y' });
    fireEvent.click(screen.getByRole('radio', { name: '3Y' }));
    expect(watchedWith.filter((w) => w.name === 'fundNav').at(-1)?.input).toEqual({ id: 1, range: '3y' });
    expect(screen.getByTestId('fund-y1').textContent).toBe('6.92%');
    expect(document.body.textContent).toContain('Any 1 year so far: 6.53% to 7.08%');
    expect(screen.getAllByTestId('fund-disclosure').length).toBeGreaterThan(0);
    expect(screen.getByRole('img', { name: 'Riskometer: Low to moderate risk' })).toBeTruthy();
    expect(document.body.textContent).toContain('Exit load0.007% within 7 days');
    expect(screen.getByTestId('fund-position').textContent).toContain('Units5.766');
    expect((screen.getByRole('button', { name: 'Redeem' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('units and the chart from the device say how old they are', () => {
    watched = { fundList: { rows: [LIQUID], count: 1 }, fundNav: NAV, fundPositions: POSITIONS };
    stale = new Set(['fundPositions', 'fundNav']);
    page();
    expect(within(screen.getByTestId('fund-position')).getByText(/^as of /)).toBeTruthy();
    expect(screen.getAllByText(/^as of /)).toHaveLength(2);
  });

  it('without units there is nothing to redeem', () => {
    watched = {
      fundList: { rows: [LIQUID], count: 1 },
      fundNav: NAV,
      fundPositions: { ...POSITIONS, rows: [] },
    };
    page();
    expect(screen.queryByTestId('fund-position')).toBeNull();
    expect((screen.getByRole('button', { name: 'Redeem' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('fund orders', () => {
  const order = (over: Partial<FundOrder>): FundOrder => ({
    id: 1,
    fund_id: 1,
    side: 'buy',
    amount: '10000.00',
    expected_return: null,
    status: 'completed',
    end_time: Date.parse('2026-12-07T21:00:00+05:30'),
    created_at: Date.parse('2026-12-07T10:00:00+05:30'),
    profit: null,
    units: '5.766',
    nav: '1734.0521',
    nav_date: '2026-12-07',
    value: '9998.54',
    stamp_duty: '0.50',
    exit_load: '0.00',
    stt: '0.00',
    cancel_until: null,
    project: { name: 'Bourse Liquid Fund', investment_period: 365, min_return: 6.53, max_return: 7.08 },
    ...over,
  });

  it('name each order by its side and status as the server struck it, with its units, NAV and charges', async () => {
    watched = {
      fundOrders: {
        rows: [
          order({
            id: 4,
            side: 'redeem',
            status: 'active',
            amount: '0.00',
            nav: null,
            value: null,
            units: '2.000',
            cancel_until: Date.parse('2026-12-08T15:00:00+05:30'),
          }),
          order({
            id: 3,
            side: 'redeem',
            units: '1.000',
            value: '1734.05',
            exit_load: '0.12',
            amount: '1733.93',
          }),
          order({ id: 2 }),
          order({
            id: 1,
            side: 'term',
            amount: '10000.00',
            profit: '33.00',
            units: null,
            nav: null,
            value: null,
          }),
        ],
      },
    };
    render(
      <MemoryRouter>
        <FundOrdersScreen />
      </MemoryRouter>,
    );
    const [pending, redeemed, allotted, term] = screen.getAllByRole('listitem');
    expect(pending!.textContent).toContain('Awaiting NAV');
    expect(pending!.textContent).toContain('NAV by Mon 21:00 IST · Can be cancelled until Tue 15:00 IST');
    expect(redeemed!.textContent).toContain('Paid');
    expect(redeemed!.textContent).toContain('Exit load₹0.12');
    expect(redeemed!.textContent).toContain('Credited₹1,733.93');
    expect(allotted!.textContent).toContain('Allotted');
    expect(allotted!.textContent).toContain('Units5.766');
    expect(allotted!.textContent).toContain('NAV1,734.0521');
    expect(allotted!.textContent).toContain('Stamp duty (0.005%)₹0.50');
    expect(term!.textContent).toContain('Matured');
    expect(term!.textContent).toContain('A fixed-term product of before: ₹10,000.00 paid back with ₹33.00.');
    expect(screen.getByRole('tab', { name: 'Pending' })).toBeTruthy();

    fireEvent.click(within(pending!).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this order?' });
    expect(dialog.textContent).toContain('The units are free to redeem again.');
    fake.answers = [{ ok: true, data: {} }];
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    });
    expect(fake.calls.map((c) => [c.name, c.input])).toEqual([['fundCancel', { id: 4 }]]);
    expect(toasts()).toEqual([['fund.cancelled', undefined]]);
  });
});
