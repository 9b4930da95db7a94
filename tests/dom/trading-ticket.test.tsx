import { act, cleanup, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { priceDecimals } from '../../src/screens/_parts/trading/parts';
import StockTradingScreen from '../../src/screens/StockTrading/StockTradingScreen';
import { useStockTrading } from '../../src/screens/StockTrading/useStockTrading';
import { candidateSymbols } from '../../src/screens/TradingEntry/useTradingEntry';
import { checkOco, parseLimitPrice } from '../../src/shared/ticket';
import { fake } from '../support/fake-worker';
import { ORDER, played, resetPlayed } from '../support/trading-screen';

/** The order ticket (StockTrading, TradingEntry): limit prices, code lookup, the order type on a stale price, OCO GTT. */

vi.mock('../../src/api/useConfig', async (original) =>
  (await import('../support/trading-screen')).playConfig(await original()),
);
vi.mock('../../src/api/hooks', async (original) =>
  (await import('../support/trading-screen')).playHooks(await original()),
);
vi.mock('../../src/api/client', async (original) => {
  const { playClient } = await import('../support/trading-screen');
  const { fakeClient } = await import('../support/fake-worker');
  return playClient(await original(), fakeClient);
});
vi.mock('../../src/ui/clock', async (original) =>
  (await import('../support/trading-screen')).playClock(await original()),
);

beforeAll(async () => {
  await initI18n('all');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetPlayed();
});

/**
 * The ticket's data as the worker would give it: RELIANCE's quote at `price` as of `as_of`,
 * `held` units held and free, every answer fetched at `updatedAt` (from the device when stale);
 * a reload asked for is noted in `reloads`.
 */
function playTicket(t: {
  now: number;
  price: number;
  held: number;
  as_of: number;
  updatedAt: number;
  stale: boolean;
  reloads?: string[];
}): void {
  played.now = t.now;
  played.watch = (name) => ({
    data:
      name === 'quote'
        ? { symbol: 'RELIANCE.NS', market: 'IN', region: 'IN', price: t.price, decimals: 2, as_of: t.as_of }
        : name === 'holdings' && t.held > 0
          ? { rows: [{ stock: 'RELIANCE.NS', count: t.held, available: t.held }], total: 1 }
          : { rows: [], total: 0 },
    error: null,
    loading: false,
    updatedAt: t.updatedAt,
    source: t.stale ? 'device' : 'network',
    stale: t.stale,
    intervalMs: 3_000,
    reload: () => t.reloads?.push(name),
  });
}

/** The order ticket's route, opened at `entry`. */
const ticketAt =
  (entry: string) =>
  ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/stock/trading/:symbol/:market/:name" element={children} />
      </Routes>
    </MemoryRouter>
  );

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

describe('order type on a price that is not live', () => {
  // Tuesday 24 Nov 2026, 13:30 IST: NSE in session. Its close that day: 15:30 IST.
  const OPEN = Date.UTC(2026, 10, 24, 8, 0);
  const CLOSE = Date.UTC(2026, 10, 24, 10, 0);
  const reloads: string[] = [];
  const play = (now: number, quote: { as_of: number; updatedAt: number; stale: boolean }) =>
    playTicket({ now, price: 2412.5, held: 0, ...quote, reloads });
  const screenAt = ticketAt('/stock/trading/RELIANCE.NS/IN/Reliance');

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
    act(() => result.current.set('limit', '2400'));
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

describe('OCO GTT ticket', () => {
  // NSE in session; RELIANCE at 2,500.00, 10 units held and free.
  const OPEN = Date.UTC(2026, 10, 24, 8, 0);
  const play = () =>
    playTicket({
      now: OPEN,
      price: 2500,
      held: 10,
      as_of: OPEN - 1_000,
      updatedAt: OPEN - 1_000,
      stale: false,
    });

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
      wrapper: ticketAt('/stock/trading/RELIANCE.NS/IN/Reliance?type=sell'),
    });
    act(() => result.current.setOrderType('gtt'));
    act(() => result.current.setGttKind('oco'));
    expect(result.current.oco).toBe(true);
    expect(result.current.blocked).not.toBeNull();
    act(() => result.current.set('trigger', '2700'));
    act(() => result.current.set('limit', '2690'));
    act(() => result.current.set('stop', '2550'));
    act(() => result.current.set('stopLimit', '2540'));
    // The stop above the last price: named on its field, and nothing may be sent.
    expect(result.current.ocoErrors).toMatchObject({ stop: 'errors.ocoStop', target: null });
    expect(result.current.blocked).not.toBeNull();
    act(() => result.current.set('stop', '2300'));
    act(() => result.current.set('stopLimit', '2290'));
    expect(result.current.ocoErrors).toEqual({
      target: null,
      targetLimit: null,
      stop: null,
      stopLimit: null,
    });
    expect(result.current.blocked).toBeNull();
    act(() => result.current.set('qty', '11'));
    expect(result.current.qtyError).not.toBeNull();
    expect(result.current.blocked).not.toBeNull();
  });

  it('a buy GTT stays single: OCO is for a holding', () => {
    play();
    const { result } = renderHook(() => useStockTrading(), {
      wrapper: ticketAt('/stock/trading/RELIANCE.NS/IN/Reliance'),
    });
    act(() => result.current.setOrderType('gtt'));
    act(() => result.current.setGttKind('oco'));
    expect(result.current.gttKind).toBe('single');
    expect(result.current.oco).toBe(false);
  });
});

describe('the ticket on a closed market, its product and validity, what it needs', () => {
  // Saturday 28 Nov 2026, 01:05 UTC: NSE closed since Friday 15:30 IST, next open Monday 09:15 IST.
  const SATURDAY = Date.UTC(2026, 10, 28, 1, 5);
  const FRIDAY_CLOSE = Date.UTC(2026, 10, 27, 10, 0);
  const MONDAY_OPEN = Date.UTC(2026, 10, 30, 3, 45);
  // Tuesday 24 Nov 2026, 13:30 IST: NSE in session, closing at 15:30 IST.
  const TUESDAY = Date.UTC(2026, 10, 24, 8, 0);
  const ZONE = process.env.TZ;
  beforeAll(() => {
    // The phone in UTC: the exchange's times must still read IST.
    process.env.TZ = 'UTC';
  });
  afterAll(() => {
    process.env.TZ = ZONE;
  });
  beforeEach(() => {
    fake.reset();
  });

  const charges = {
    brokerage: '20.00',
    stt: '24.13',
    exchange: '0.72',
    sebi: '0.02',
    stamp: '3.62',
    gst: '3.73',
    total: '52.22',
  };
  /**
   * RELIANCE at 2,412.50 with the server's session (`open`, `opens_at`), 10 units held; the
   * server's figures for the order as asked (the charges above, ₹1,00,000.00 available).
   */
  const asked: Array<{ side?: 'buy' | 'sell'; count?: number; price?: number; order_type?: string }> = [];
  /** Money the user's pending buys already hold, as the server would say (`blocked`). */
  let blocked = '0.00';
  /**
   * The server's figures for one unit at 2,412.50 (the charges above); an after-market market buy
   * also holds its protection: value and charges at 2,436.63 (1 % above, on whole paise) less these,
   * ₹24.63 + ₹0.53 more charges = ₹25.16 (figures of this fake, not recomputed).
   */
  function quoteAnswer(
    i: { side?: 'buy' | 'sell'; count?: number; price?: number; order_type?: string },
    open: boolean,
    now: number,
  ) {
    const amo = i.order_type === 'market' && !open && i.side === 'buy';
    const buy = i.side !== 'sell';
    return {
      tag: 'RELIANCE.NS',
      side: i.side,
      count: i.count,
      price: i.price ?? 2412.5,
      value: '2412.50',
      charges,
      net: buy ? '2464.72' : '2360.28',
      protection: amo ? '25.16' : '0.00',
      limit: amo ? 2436.63 : null,
      required: buy ? (amo ? '2489.88' : '2464.72') : '0.00',
      available: '100000.00',
      blocked,
      held: 10,
      affordable: 40,
      as_of: now,
    };
  }
  function playScreen(now: number, session: { open: boolean; opens_at: number | null; closes_at: number }) {
    played.now = now;
    played.watch = (name, input) => {
      const i = (input ?? {}) as { side?: 'buy' | 'sell'; count?: number; price?: number };
      if (name === 'orderQuote') asked.push(i);
      const data =
        name === 'quote'
          ? {
              symbol: 'RELIANCE.NS',
              name: 'Reliance Industries',
              market: 'IN',
              region: 'IN',
              price: 2412.5,
              change: 0,
              changePercent: 0,
              decimals: 2,
              as_of: session.open ? now - 1_000 : session.closes_at - 1_000,
            }
          : name === 'holdings'
            ? {
                rows: [
                  {
                    stock: 'RELIANCE.NS',
                    region: 'IN',
                    decimals: 2,
                    count: 10,
                    available: 10,
                    avg_price: 2300,
                    cost: '23000.00',
                    value: '24125.00',
                    profit: '1125.00',
                  },
                ],
                count: 1,
              }
            : name === 'depth'
              ? { symbol: 'RELIANCE.NS', book: null, session }
              : name === 'orderQuote'
                ? quoteAnswer(i, session.open, now)
                : name === 'orderList'
                  ? { rows: [], count: 0 }
                  : null;
      return {
        data,
        error: null,
        loading: false,
        updatedAt: now,
        source: 'network',
        stale: false,
        intervalMs: 3_000,
        reload: () => {},
      };
    };
  }
  const renderScreen = (entry = '/stock/trading/RELIANCE.NS/IN/Reliance') =>
    render(<StockTradingScreen />, { wrapper: ticketAt(entry) });

  it("says before the review that a market order on a closed market is placed at the open, in the exchange's time", () => {
    playScreen(SATURDAY, { open: false, opens_at: MONDAY_OPEN, closes_at: FRIDAY_CLOSE });
    renderScreen();
    expect(screen.getByTestId('trade-closed').textContent).toBe(
      'Market closed — placed at the open, Mon 09:15 IST',
    );
    // Its figures are asked at the last price, 2,412.50, as a market order: the server adds what an
    // AMO holds beyond it.
    expect(asked.at(-1)).toMatchObject({ side: 'buy', count: 1, price: 2412.5, order_type: 'market' });
    // A limit order is an after-market order too (never filled at the closed market's last price);
    // a stop-loss is not: the notice says only when the market opens.
    fireEvent.click(screen.getByRole('radio', { name: 'Limit' }));
    expect(screen.getByTestId('trade-closed').textContent).toBe(
      'Market closed — placed at the open, Mon 09:15 IST',
    );
    fireEvent.click(screen.getByRole('radio', { name: 'SL' }));
    expect(screen.getByTestId('trade-closed').textContent).toBe('Market closed — opens Mon 09:15 IST');
    fireEvent.click(screen.getByRole('radio', { name: 'Market' }));
    // The review says it again above Confirm.
    fireEvent.click(screen.getByRole('button', { name: 'Buy RELIANCE' }));
    expect(screen.getByTestId('review-closed').textContent).toBe(
      'Market closed — placed at the open, Mon 09:15 IST',
    );
  });

  it('an after-market buy names what it holds: value at the last price, charges, protection; blocked under available', () => {
    playScreen(SATURDAY, { open: false, opens_at: MONDAY_OPEN, closes_at: FRIDAY_CLOSE });
    blocked = '19529.90';
    try {
      renderScreen();
      // Required is what leaves Available: value and charges at the last price plus the protection.
      expect(screen.getByTestId('trade-need').textContent).toBe(
        'Required ₹2,489.88 · Available ₹1,00,000.00 (₹19,529.90 blocked) · Charges ₹52.22',
      );
      fireEvent.click(screen.getByRole('button', { name: 'Buy RELIANCE' }));
      const review = screen.getByTestId('trade-confirm');
      const row = (label: string) => within(review).getByText(label).parentElement?.textContent;
      expect(row('Value at the last price')).toBe('Value at the last price₹2,412.50');
      expect(row('Stamp duty')).toBe('Stamp duty₹3.62');
      expect(row('Total cost (estimated)')).toBe('Total cost (estimated)₹2,464.72');
      expect(screen.getByTestId('review-protection').textContent).toBe('₹25.16');
      expect(row('Protection, up to ₹2,436.63')).toBe('Protection, up to ₹2,436.63₹25.16');
      expect(screen.getByTestId('review-required').textContent).toBe('₹2,489.88');
      expect(screen.getByTestId('review-blocked').textContent).toBe('₹19,529.90');
      expect(screen.getByTestId('review-protection-hint').textContent).toContain('up to ₹2,436.63');
      // No amount on the sheet carries more than two decimals.
      for (const money of review.textContent?.match(/₹[\d,]+(\.\d+)?/g) ?? [])
        expect(money).toMatch(/\.\d{2}$/);
    } finally {
      blocked = '0.00';
    }
  });

  it("takes open or closed from the server's session, not the phone's clock", () => {
    // The phone's clock says NSE is trading; the server (its clock decides) says closed.
    playScreen(TUESDAY, {
      open: false,
      opens_at: Date.UTC(2026, 10, 25, 3, 45),
      closes_at: TUESDAY - 60_000,
    });
    renderScreen();
    expect(screen.getByTestId('trade-closed').textContent).toBe(
      'Market closed — placed at the open, Wed 09:15 IST',
    );
    cleanup();
    playScreen(TUESDAY, { open: true, opens_at: null, closes_at: Date.UTC(2026, 10, 24, 10, 0) });
    renderScreen();
    expect(screen.queryByTestId('trade-closed')).toBeNull();
    // The square-off time only for an intraday order.
    expect(screen.queryByTestId('trade-product-hint')).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Intraday' }));
    expect(screen.getByTestId('trade-product-hint').textContent).toBe(
      'Intraday positions are squared off at the close, 15:30 IST. Full value required (no margin).',
    );
  });

  it("shows Required · Available · Charges from the server's figures for a buy, and what arrives for a sell", () => {
    playScreen(TUESDAY, { open: true, opens_at: null, closes_at: Date.UTC(2026, 10, 24, 10, 0) });
    renderScreen();
    expect(screen.getByTestId('trade-need').textContent).toBe(
      'Required ₹2,464.72 · Available ₹1,00,000.00 · Charges ₹52.22',
    );
    cleanup();
    renderScreen('/stock/trading/RELIANCE.NS/IN/Reliance?type=sell');
    expect(screen.getByTestId('trade-need').textContent).toBe(
      'You receive ₹2,360.28 · Free to sell 10 · Charges ₹52.22',
    );
    // The side in words, and the sheet in its colour.
    expect(screen.getByTestId('trade-side-band').textContent).toBe('Selling RELIANCE');
    expect(screen.getByRole('tabpanel').dataset.side).toBe('sell');
  });

  it("says the maximum a balance affords at the price asked only from the server's answer for that price", () => {
    playScreen(TUESDAY, { open: true, opens_at: null, closes_at: Date.UTC(2026, 10, 24, 10, 0) });
    // The poll keeps the last answer (for 2,412.50) until the one for a new price arrives.
    const answer = played.watch!;
    played.watch = (name, input) =>
      name === 'orderQuote'
        ? { ...(answer(name, input) as object), data: quoteAnswer({ side: 'buy', count: 1 }, true, TUESDAY) }
        : answer(name, input);
    renderScreen();
    fireEvent.click(screen.getByRole('radio', { name: 'Limit' }));
    const max = screen.getByTestId('trade-max');
    expect(max.textContent).toBe('Max 40 · what your balance affords');
    fireEvent.change(screen.getByRole('textbox', { name: 'Limit price' }), { target: { value: '2300.00' } });
    expect(max.textContent).toBe('Max · checking what your balance affords…');
    played.watch = answer;
    fireEvent.change(screen.getByRole('textbox', { name: 'Limit price' }), { target: { value: '2300.05' } });
    expect(max.textContent).toBe('Max 40 · what your balance affords');
  });

  it('sends the product and validity chosen (and says them in the review); a GTT is delivery only', async () => {
    playScreen(TUESDAY, { open: true, opens_at: null, closes_at: Date.UTC(2026, 10, 24, 10, 0) });
    fake.respond = (name, input) => ({
      ok: true,
      data: { ...ORDER, state: 'buy', status: 1, no: 'B1', ...(input as object), name },
    });
    renderScreen();
    fireEvent.click(screen.getByRole('radio', { name: 'Intraday' }));
    fireEvent.click(screen.getByRole('radio', { name: 'IOC' }));
    expect(screen.getByTestId('trade-product-hint').textContent).toBe(
      'Intraday positions are squared off at the close, 15:30 IST. Full value required (no margin). IOC: fills at once at the market price; what cannot fill at once is cancelled.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Buy RELIANCE' }));
    expect(screen.getByTestId('review-product').textContent).toBe('Intraday');
    // When it is squared off: the close of the session running, in the exchange's zone.
    expect(screen.getByTestId('review-square-off').textContent).toBe('Tue 15:30 IST');
    expect(screen.getByTestId('review-validity').textContent).toBe('IOC');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm buy' }));
    });
    const sent = fake.calls.find((c) => c.name === 'dealBuy');
    expect(sent?.input).toMatchObject({
      tag: 'RELIANCE.NS',
      count: 1,
      price: 2412.5,
      mold: 'stock',
      order_type: 'market',
      product: 'intraday',
      validity: 'ioc',
    });
    cleanup();
    renderScreen();
    fireEvent.click(screen.getByRole('radio', { name: 'Intraday' }));
    fireEvent.click(screen.getByRole('radio', { name: 'GTT' }));
    expect(screen.getByRole('radio', { name: 'Intraday' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('radio', { name: 'Delivery' }).getAttribute('aria-checked')).toBe('true');
    // A GTT has days, not Day/IOC.
    expect(screen.queryByRole('radio', { name: 'IOC' })).toBeNull();
  });

  it('an after-market order placed shows pending with its send time, the exchange’s', async () => {
    playScreen(SATURDAY, { open: false, opens_at: MONDAY_OPEN, closes_at: FRIDAY_CLOSE });
    // The server records what the ticket placed.
    fake.respond = (_name, input) => ({
      ok: true,
      data: {
        ...ORDER,
        order_type: (input as { order_type: 'market' | 'limit' }).order_type,
        state: 'buy',
        status: 0,
        no: 'B2',
        price: 2412.5,
        limit_price: 2412.5,
        sell_price: null,
        price_all: '2464.72',
        fee: '52.22',
        profit: null,
        amo: true,
        send_at: MONDAY_OPEN,
      },
    });
    renderScreen();
    fireEvent.click(screen.getByRole('button', { name: 'Buy RELIANCE' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm buy' }));
    });
    expect(screen.getByRole('heading', { name: 'Order placed' })).toBeTruthy();
    expect(screen.getByTestId('result-sends-at').textContent).toBe('Mon 09:15 IST');
    expect(screen.getByText('Protection limit')).toBeTruthy();
    expect(fake.calls.find((c) => c.name === 'dealBuy')?.input).toMatchObject({ order_type: 'market' });
    // A limit AMO's limit is the user's own, not a protection.
    cleanup();
    renderScreen();
    fireEvent.click(screen.getByRole('radio', { name: 'Limit' }));
    fireEvent.change(screen.getByLabelText('Limit price'), { target: { value: '2412.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy RELIANCE' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm buy' }));
    });
    expect(screen.getByTestId('result-sends-at').textContent).toBe('Mon 09:15 IST');
    expect(screen.queryByText('Protection limit')).toBeNull();
    expect(fake.calls.findLast((c) => c.name === 'dealBuy')?.input).toMatchObject({ order_type: 'limit' });
  });

  it('an IOC the server cancelled reads as cancelled, with why and what came back: never as filled', async () => {
    playScreen(SATURDAY, { open: true, opens_at: null, closes_at: FRIDAY_CLOSE });
    fake.respond = () => ({
      ok: true,
      data: {
        ...ORDER,
        order_type: 'limit',
        state: 'buy',
        status: 2,
        no: 'S9',
        count: 2,
        price: 2300,
        limit_price: 2300,
        sell_price: null,
        price_all: '4610.40',
        value: '4600.00',
        fee: '10.40',
        profit: null,
        validity: 'ioc',
        reason: 'errors.iocUnfilled',
      },
    });
    renderScreen();
    fireEvent.click(screen.getByRole('radio', { name: 'Limit' }));
    fireEvent.change(screen.getByLabelText('Limit price'), { target: { value: '2300' } });
    fireEvent.click(screen.getByRole('radio', { name: 'IOC' }));
    fireEvent.click(screen.getByRole('button', { name: 'Buy RELIANCE' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm buy' }));
    });
    expect(screen.getByRole('heading', { name: 'Order cancelled' })).toBeTruthy();
    expect(screen.queryByText('Order filled')).toBeNull();
    expect(screen.getByTestId('result-status').textContent).toBe('Cancelled');
    expect(screen.getByTestId('result-filled').textContent).toBe('0 of 2');
    expect(screen.getByTestId('result-released').textContent).toBe('₹4,610.40');
    expect(screen.getByTestId('result-reason').textContent).toContain('the IOC order was cancelled');
    // Nothing executed: no fill price, no contract note.
    expect(screen.queryByTestId('result-price')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Contract note' })).toBeNull();
  });

  it('does not offer IOC while the market is closed, and says why', () => {
    playScreen(SATURDAY, { open: false, opens_at: MONDAY_OPEN, closes_at: FRIDAY_CLOSE });
    renderScreen();
    expect(screen.getByRole('radio', { name: 'IOC' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('radio', { name: 'Day' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('trade-product-hint').textContent).toBe(
      'IOC is off while the market is closed: an IOC order would be cancelled, not kept for the open.',
    );
  });
});
