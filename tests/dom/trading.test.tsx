import { act, cleanup, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderRow } from '#shared/contract/trading';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { ModifyOrderSheet } from '../../src/screens/_parts/trading/ModifyOrderSheet';
import { priceDecimals } from '../../src/screens/_parts/trading/parts';
import type { useModifyOrder } from '../../src/screens/_parts/trading/useModifyOrder';
import { RecordCard } from '../../src/screens/Records/RecordsScreen';
import { recordStatus, statusOfTab } from '../../src/screens/Records/useRecords';
import { checkOco, parseLimitPrice, useStockTrading } from '../../src/screens/StockTrading/useStockTrading';
import { candidateSymbols } from '../../src/screens/TradingEntry/useTradingEntry';
import { LoadMore, usePages } from '../../src/ui';

/** The trading screens' pure pieces: paging, record cards and statuses, limit prices, code lookup. */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));

/** The trading screen's data and clock, played by the tests that set them (the others see the real ones). */
const played = vi.hoisted(() => ({
  watch: null as null | ((name: string, input?: unknown) => unknown),
  now: null as number | null,
}));
vi.mock('../../src/api/hooks', async (original) => {
  const real = await original<typeof import('../../src/api/hooks')>();
  return {
    ...real,
    useWatch: ((...args: Parameters<typeof real.useWatch>) =>
      // biome-ignore lint/correctness/useHookAtTopLevel: whether a test plays the screen is fixed for the whole test
      played.watch ? played.watch(args[0], args[1]) : real.useWatch(...args)) as typeof real.useWatch,
  };
});
vi.mock('../../src/api/client', async (original) => {
  const real = await original<typeof import('../../src/api/client')>();
  // A played screen has no worker: its events (money outcomes) come from the one fake worker.
  const { fakeClient } = await import('../support/fake-worker');
  return {
    ...real,
    listen: ((...args: Parameters<typeof real.listen>) =>
      played.watch
        ? (fakeClient.listen as unknown as typeof real.listen)(...args)
        : real.listen(...args)) as typeof real.listen,
  };
});
vi.mock('../../src/ui/clock', async (original) => {
  const real = await original<typeof import('../../src/ui/clock')>();
  return {
    ...real,
    // biome-ignore lint/correctness/useHookAtTopLevel: whether a test sets the time is fixed for the whole test
    useNow: () => played.now ?? real.useNow(),
  };
});

beforeAll(async () => {
  await initI18n('all');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  played.watch = null;
  played.now = null;
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
  unlock_at: null,
  reason: null,
  order_type: null,
  trigger_price: null,
  triggered_at: null,
  trigger_rises: null,
  target_limit: null,
  stop_trigger: null,
  stop_limit: null,
  fired_leg: null,
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

const noActions = () => ({ cancel: vi.fn(), modify: vi.fn(), note: vi.fn() });

/** One order card as the records list renders it; `show` puts another state of it on screen. */
function renderCard(order: OrderRow, actions = noActions()) {
  const card = (o: OrderRow) => (
    <MemoryRouter>
      <ul>
        <RecordCard order={o} actions={actions} />
      </ul>
    </MemoryRouter>
  );
  const { rerender } = render(card(order));
  return { show: (next: OrderRow) => rerender(card(next)) };
}

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

  it('shows a sell with its code, type, sell and cost price, P/L and total, its contract note and no cancel', () => {
    const actions = noActions();
    renderCard(ORDER, actions);
    expect(screen.getByTestId('order-type').textContent).toBe('Market');
    act(() => screen.getByRole('button', { name: 'Contract note for TCS' }).click());
    expect(actions.note).toHaveBeenCalledWith('S123');
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

  it('shows a pending buy at its limit, with what it reserved, a modify and a cancel button', () => {
    const actions = noActions();
    const pending: OrderRow = {
      ...ORDER,
      state: 'buy',
      status: 0,
      sell_price: null,
      profit: null,
      price_all: '37700.00',
      expires_at: Date.UTC(2026, 10, 24, 10, 0),
    };
    renderCard(pending, actions);
    expect(screen.getByTestId('order-type').textContent).toBe('Limit');
    expect(screen.getByText('Limit price').nextSibling?.textContent).toBe('₹3,770.00');
    expect(screen.getByText('Reserved').nextSibling?.textContent).toBe('₹37,700.00');
    expect(screen.queryByText('Profit/loss')).toBeNull();
    expect(screen.queryByRole('button', { name: /Contract note/ })).toBeNull();
    // The same order as a sell holds its 10 units, not ₹37,700: its value at the limit is an estimate.
    cleanup();
    renderCard({ ...pending, state: 'sell' });
    expect(screen.getByText('Limit price').nextSibling?.textContent).toBe('₹3,770.00');
    expect(screen.getByText('Value (estimated)').nextSibling?.textContent).toBe('₹37,700.00');
    expect(screen.queryByText('Reserved')).toBeNull();
    cleanup();
    renderCard(pending, actions);
    act(() => screen.getByRole('button', { name: 'Cancel order for TCS' }).click());
    expect(actions.cancel).toHaveBeenCalledWith(pending);
    act(() => screen.getByRole('button', { name: 'Modify order for TCS' }).click());
    expect(actions.modify).toHaveBeenCalledWith(pending);
  });

  it('shows a stop with its type and trigger, and once triggered where it triggered', () => {
    const stop: OrderRow = {
      ...ORDER,
      state: 'sell',
      status: 0,
      sell_price: null,
      profit: null,
      order_type: 'slm',
      trigger_price: 3650,
      limit_price: 3613.5,
      expires_at: Date.UTC(2026, 10, 24, 10, 0),
    };
    const { show } = renderCard(stop);
    expect(screen.getByTestId('order-type').textContent).toBe('SL-M');
    expect(screen.getByText('Trigger price').nextSibling?.textContent).toBe('₹3,650.00');
    show({ ...stop, triggered_at: Date.UTC(2026, 10, 24, 9, 45) });
    expect(screen.getByText('Triggered at').nextSibling?.textContent).toBe('₹3,650.00');
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
});

describe('order type on a price that is not live (issue 11)', () => {
  // Tuesday 24 Nov 2026, 13:30 IST: NSE in session. Its close that day: 15:30 IST.
  const OPEN = Date.UTC(2026, 10, 24, 8, 0);
  const CLOSE = Date.UTC(2026, 10, 24, 10, 0);
  const reloads: string[] = [];

  function play(now: number, quote: { as_of: number; updatedAt: number; stale: boolean }): void {
    played.now = now;
    played.watch = (name) => ({
      data:
        name === 'quote'
          ? {
              symbol: 'RELIANCE.NS',
              market: 'IN',
              region: 'IN',
              price: 2412.5,
              decimals: 2,
              as_of: quote.as_of,
            }
          : name === 'holdings'
            ? { rows: [], total: 0 }
            : { rows: [], total: 0 },
      error: null,
      loading: false,
      updatedAt: quote.updatedAt,
      source: quote.stale ? 'device' : 'network',
      stale: quote.stale,
      intervalMs: 3_000,
      reload: () => reloads.push(name),
    });
  }
  const screenAt = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={['/stock/trading/RELIANCE.NS/IN/Reliance']}>
      <Routes>
        <Route path="/stock/trading/:symbol/:market/:name" element={children} />
      </Routes>
    </MemoryRouter>
  );

  it('offers a market order on a live price', () => {
    play(OPEN, { as_of: OPEN - 1_000, updatedAt: OPEN - 1_000, stale: false });
    const { result } = renderHook(() => useStockTrading(), { wrapper: screenAt });
    expect(result.current.marketAllowed).toBe(true);
    expect(result.current.orderType).toBe('market');
  });

  it('limit only on a stale price while the market trades, and the price is fetched afresh before confirming', () => {
    reloads.length = 0;
    play(OPEN, { as_of: OPEN - 60_000, updatedAt: OPEN - 60_000, stale: true });
    const { result } = renderHook(() => useStockTrading(), { wrapper: screenAt });
    expect(result.current.marketAllowed).toBe(false);
    expect(result.current.orderType).toBe('limit');
    act(() => result.current.setOrderType('market'));
    expect(result.current.orderType).toBe('limit');
    act(() => result.current.setLimitText('2400'));
    act(() => result.current.openConfirm());
    expect(reloads).toContain('quote');
  });

  it('a price too old for its poll interval is stale too, even without an error', () => {
    play(OPEN, { as_of: OPEN - 30_000, updatedAt: OPEN - 30_000, stale: false });
    const { result } = renderHook(() => useStockTrading(), { wrapper: screenAt });
    expect(result.current.orderType).toBe('limit');
  });

  it("a closed market's last price is right, not stale: the order type stays the user's", () => {
    play(CLOSE + 3 * 3_600_000, { as_of: CLOSE - 1_000, updatedAt: CLOSE - 1_000, stale: true });
    const { result } = renderHook(() => useStockTrading(), { wrapper: screenAt });
    expect(result.current.marketAllowed).toBe(true);
    expect(result.current.orderType).toBe('market');
  });
});

describe('OCO GTT ticket (issue 13)', () => {
  // NSE in session; RELIANCE at 2,500.00, 10 units held and free.
  const OPEN = Date.UTC(2026, 10, 24, 8, 0);
  function play(): void {
    played.now = OPEN;
    played.watch = (name) => ({
      data:
        name === 'quote'
          ? {
              symbol: 'RELIANCE.NS',
              market: 'IN',
              region: 'IN',
              price: 2500,
              decimals: 2,
              as_of: OPEN - 1_000,
            }
          : name === 'holdings'
            ? { rows: [{ stock: 'RELIANCE.NS', count: 10, available: 10 }], total: 1 }
            : { rows: [], total: 0 },
      error: null,
      loading: false,
      updatedAt: OPEN - 1_000,
      source: 'network',
      stale: false,
      intervalMs: 3_000,
      reload: () => {},
    });
  }
  const at =
    (entry: string) =>
    ({ children }: { children: ReactNode }) => (
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/stock/trading/:symbol/:market/:name" element={children} />
        </Routes>
      </MemoryRouter>
    );

  it('checks both legs against the last price and their limits', () => {
    const ok = { target: 2700, targetLimit: 2690, stop: 2300, stopLimit: 2290 };
    expect(checkOco(ok, 2500)).toEqual({ target: null, targetLimit: null, stop: null, stopLimit: null });
    expect(checkOco({ ...ok, target: 2500 }, 2500).target).toBe('errors.ocoTarget');
    expect(checkOco({ ...ok, target: 2400, targetLimit: 2390 }, 2500).target).toBe('errors.ocoTarget');
    expect(checkOco({ ...ok, stop: 2500, stopLimit: 2490 }, 2500).stop).toBe('errors.ocoStop');
    expect(checkOco({ ...ok, stop: null }, 2500).stop).toBe('errors.ocoBothTriggers');
    expect(checkOco({ ...ok, target: null }, 2500).target).toBe('errors.ocoBothTriggers');
    expect(checkOco({ ...ok, targetLimit: 2710 }, 2500).targetLimit).toBe('errors.triggerLimit');
    expect(checkOco({ ...ok, stopLimit: 2310 }, 2500).stopLimit).toBe('errors.triggerLimit');
    expect(checkOco({ ...ok, stopLimit: null }, 2500).stopLimit).toBe('trade.limit.invalid');
  });

  it('a sell GTT may be OCO: blocked until both legs are right, the quantity within the holding', () => {
    play();
    const { result } = renderHook(() => useStockTrading(), {
      wrapper: at('/stock/trading/RELIANCE.NS/IN/Reliance?type=sell'),
    });
    act(() => result.current.setOrderType('gtt'));
    act(() => result.current.setGttKind('oco'));
    expect(result.current.oco).toBe(true);
    expect(result.current.blocked).toBe(true);
    act(() => result.current.setTriggerText('2700'));
    act(() => result.current.setLimitText('2690'));
    act(() => result.current.setStopText('2550'));
    act(() => result.current.setStopLimitText('2540'));
    // The stop above the last price: named on its field, and nothing may be sent.
    expect(result.current.ocoErrors).toMatchObject({ stop: 'errors.ocoStop', target: null });
    expect(result.current.blocked).toBe(true);
    act(() => result.current.setStopText('2300'));
    act(() => result.current.setStopLimitText('2290'));
    expect(result.current.ocoErrors).toEqual({
      target: null,
      targetLimit: null,
      stop: null,
      stopLimit: null,
    });
    expect(result.current.blocked).toBe(false);
    act(() => result.current.setQtyText('11'));
    expect(result.current.qtyError).not.toBeNull();
    expect(result.current.blocked).toBe(true);
  });

  it('a buy GTT stays single: OCO is for a holding', () => {
    play();
    const { result } = renderHook(() => useStockTrading(), {
      wrapper: at('/stock/trading/RELIANCE.NS/IN/Reliance'),
    });
    act(() => result.current.setOrderType('gtt'));
    act(() => result.current.setGttKind('oco'));
    expect(result.current.gttKind).toBe('single');
    expect(result.current.oco).toBe(false);
  });

  it('the orders screen shows both legs, and which one fired', () => {
    const oco: OrderRow = {
      ...ORDER,
      tag: 'RELIANCE.NS',
      status: 0,
      sell_price: null,
      profit: null,
      order_type: 'oco',
      trigger_price: 2700,
      target_limit: 2690,
      stop_trigger: 2300,
      stop_limit: 2290,
      limit_price: 2690,
      trigger_rises: true,
      expires_at: Date.UTC(2027, 10, 24, 10, 0),
    };
    const { show } = renderCard(oco);
    expect(screen.getByTestId('order-type').textContent).toBe('GTT OCO');
    expect(screen.getByTestId('oco-target').textContent).toBe('₹2,700.00 → limit ₹2,690.00');
    expect(screen.getByTestId('oco-stop').textContent).toBe('₹2,300.00 → limit ₹2,290.00');
    expect(screen.queryByTestId('oco-fired')).toBeNull();
    expect(screen.getByText('Valid until')).toBeTruthy();
    // Armed, no leg's price is the order's yet, and a sell holds units, not money: no single limit,
    // no "Reserved" sum, no fee before it fills.
    expect(screen.queryByText('Limit price')).toBeNull();
    expect(screen.queryByText('Reserved')).toBeNull();
    expect(screen.queryByText('Fee')).toBeNull();
    show({
      ...oco,
      status: 1,
      fired_leg: 'stop',
      limit_price: 2290,
      sell_price: 2295,
      triggered_at: OPEN,
    });
    expect(screen.getByTestId('oco-fired').textContent).toBe('₹2,300.00 (stop)');
    expect(screen.getByText('Triggered at')).toBeTruthy();
    // The stop fired: the target leg is gone with it, the stop keeps its trigger and limit.
    expect(screen.getByTestId('oco-target').textContent).toBe('gone (stop fired)');
    expect(screen.getByTestId('oco-stop').textContent).toBe('₹2,300.00 → limit ₹2,290.00');
  });
});

describe('Modify sheet of an OCO (issue 13)', () => {
  // 4 RELIANCE held by an OCO sell: target 2,700 → 2,690, stop 2,300 → 2,290.
  const OCO: OrderRow = {
    ...ORDER,
    tag: 'RELIANCE.NS',
    name: 'Reliance Industries',
    status: 0,
    count: 4,
    sell_price: null,
    profit: null,
    price_all: '10760.00',
    fee: '0.00',
    order_type: 'oco',
    trigger_price: 2700,
    target_limit: 2690,
    stop_trigger: 2300,
    stop_limit: 2290,
    limit_price: 2690,
    trigger_rises: true,
    expires_at: Date.UTC(2027, 10, 24, 10, 0),
  };
  const FIRED: OrderRow = {
    ...OCO,
    fired_leg: 'stop',
    limit_price: 2290,
    triggered_at: Date.UTC(2026, 10, 25, 5, 0),
  };

  /** The sheet open on `order`; the server's figures answer the quantity and price asked. */
  function open(order: OrderRow) {
    const asked: unknown[] = [];
    played.watch = (name, input) => {
      if (name === 'orderQuote' && input) asked.push(input);
      const q = input as { count: number; price: number } | null;
      return {
        data:
          name === 'orderQuote' && q
            ? { count: q.count, price: q.price, held: 10, net: (q.count * q.price).toFixed(2) }
            : undefined,
        error: null,
        loading: false,
        updatedAt: Date.now(),
        source: 'network',
        stale: false,
        intervalMs: 0,
        reload: () => {},
      };
    };
    const submit = vi.fn(async () => {});
    const modify = {
      editing: order,
      open: vi.fn(),
      busy: false,
      failure: null,
      submit,
      call: { phase: 'idle', resend: () => {}, dismiss: () => {} },
    } as unknown as ReturnType<typeof useModifyOrder>;
    render(<ModifyOrderSheet modify={modify} />);
    const sheet = within(screen.getByRole('dialog', { name: 'Modify order · RELIANCE' }));
    return { sheet, submit, asked };
  }
  const row = (sheet: ReturnType<typeof within>, label: string) =>
    sheet.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

  it('an armed OCO changes its quantity only: its legs are shown, not editable, and only the count is sent', () => {
    const { sheet, submit, asked } = open(OCO);
    expect(row(sheet, 'Order type')).toBe('Sell · GTT OCO');
    expect(row(sheet, 'Target')).toBe('₹2,700.00 → limit ₹2,690.00');
    expect(row(sheet, 'Stop')).toBe('₹2,300.00 → limit ₹2,290.00');
    expect(sheet.queryByText('Triggered at')).toBeNull();
    // The quantity is the one field: no trigger, no limit.
    expect(sheet.getAllByRole('textbox')).toHaveLength(1);
    expect(sheet.getByRole('textbox', { name: 'Quantity' })).toBeTruthy();
    expect(sheet.queryByRole('textbox', { name: /Limit price|Trigger price/ })).toBeNull();
    expect(sheet.getByText(/An OCO's target and stop can't be changed/)).toBeTruthy();
    const confirm = sheet.getByRole('button', { name: 'Modify order' });
    expect(confirm).toHaveProperty('disabled', true);

    fireEvent.change(sheet.getByRole('textbox', { name: 'Quantity' }), { target: { value: '3' } });
    expect(row(sheet, 'Shares held after the change')).toBe('3');
    // Priced where it holds the units: its target's limit (the order's limit price).
    expect(asked.at(-1)).toEqual({ tag: 'RELIANCE.NS', side: 'sell', count: 3, price: 2690 });
    expect(confirm).toHaveProperty('disabled', false);
    fireEvent.click(confirm);
    expect(submit).toHaveBeenCalledWith(OCO, { count: 3 });
  });

  it('once a leg has fired it rests at that leg’s limit: the limit may change, the other leg is gone', () => {
    const { sheet, submit } = open(FIRED);
    expect(row(sheet, 'Target')).toBe('gone (stop fired)');
    expect(row(sheet, 'Stop')).toBe('₹2,300.00 → limit ₹2,290.00');
    expect(row(sheet, 'Triggered at')).toBe('₹2,300.00 (stop)');
    expect(sheet.queryByText(/An OCO's target and stop can't be changed/)).toBeNull();
    expect(sheet.queryByRole('textbox', { name: 'Trigger price' })).toBeNull();
    const limit = sheet.getByRole('textbox', { name: 'Limit price' }) as HTMLInputElement;
    expect(limit.value).toBe('2290');
    fireEvent.change(limit, { target: { value: '2295' } });
    fireEvent.click(sheet.getByRole('button', { name: 'Modify order' }));
    expect(submit).toHaveBeenCalledWith(FIRED, { price: 2295 });
  });
});
