import { act, cleanup, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OrderRow } from '#shared/contract/trading';
import { initI18n } from '../../src/i18n/index';
import { ModifyOrderSheet } from '../../src/screens/_parts/trading/ModifyOrderSheet';
import { OrderDetail } from '../../src/screens/_parts/trading/OrderDetailSheet';
import { OrderLine } from '../../src/screens/_parts/trading/OrderLine';
import { orderLine, priceAsMoney } from '../../src/screens/_parts/trading/orderLine';
import type { useModifyOrder } from '../../src/screens/_parts/trading/useModifyOrder';
import { statusOfTab } from '../../src/screens/Records/useRecords';
import { LoadMore, usePages } from '../../src/ui';
import { ORDER, played, resetPlayed } from '../support/trading-screen';

/** The orders (Records) screen: paging, each order's card and status, an OCO's legs, the modify sheet. */

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

/**
 * One order as the records list shows it — its row, and the detail the row opens (here in the page,
 * not in its sheet); `show` puts another state of it on screen.
 */
function renderCard(order: OrderRow, actions = noActions()) {
  const card = (o: OrderRow) => (
    <MemoryRouter>
      <ul>
        <OrderLine order={o} onOpen={() => {}} />
      </ul>
      <OrderDetail order={o} onClose={() => {}} actions={actions} />
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
    const status = (n: number) => {
      const line = orderLine({ ...ORDER, status: n });
      return [line.statusKey, line.tone];
    };
    expect([0, 1, 2, 3, 4].map(status)).toEqual([
      ['records.status.pending', 'warn'],
      ['records.status.success', 'success'],
      ['records.status.cancelled', 'muted'],
      ['records.status.expired', 'muted'],
      ['records.status.failed', 'danger'],
    ]);
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
    expect(screen.getByTestId('order-status').textContent).toBe('Success');
    expect(screen.getByTestId('detail-status').textContent).toBe('Success');
    // The row: a sell of 10 TCS at its sale price, all of it filled.
    expect(screen.getByTestId('order-price').textContent).toBe('₹3,772.06');
    expect(screen.getByTestId('order-filled').textContent).toBe('10/10');
    expect(screen.getByTestId('order-product').textContent).toBe('Delivery');
    expect(screen.getByTestId('order-validity').textContent).toBe('Day');
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

/** 4 RELIANCE held by an armed OCO sell: target 2,700 → 2,690, stop 2,300 → 2,290. */
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

describe('OCO orders', () => {
  it('the orders screen shows both legs, and which one fired', () => {
    const { show } = renderCard(OCO);
    expect(screen.getByTestId('order-type').textContent).toBe('GTT OCO');
    expect(screen.getByTestId('oco-target').textContent).toBe('₹2,700.00 → limit ₹2,690.00');
    expect(screen.getByTestId('oco-stop').textContent).toBe('₹2,300.00 → limit ₹2,290.00');
    expect(screen.queryByTestId('oco-fired')).toBeNull();
    expect(screen.getByText('Valid until')).toBeTruthy();
    // Armed, no leg's price is the order's yet, and a sell holds units, not money: no single limit,
    // no "Reserved" sum, no fee before it fills.
    expect(screen.queryByText('Limit price')).toBeNull();
    expect(screen.queryByText('Reserved')).toBeNull();
    expect(screen.queryByText('Charges')).toBeNull();
    expect(screen.getByTestId('order-price').textContent).toBe('—');
    show({
      ...OCO,
      status: 1,
      fired_leg: 'stop',
      limit_price: 2290,
      sell_price: 2295,
      triggered_at: Date.UTC(2026, 10, 24, 8, 0),
    });
    expect(screen.getByTestId('oco-fired').textContent).toBe('₹2,300.00 (stop)');
    expect(screen.getByText('Triggered at')).toBeTruthy();
    // The stop fired: the target leg is gone with it, the stop keeps its trigger and limit.
    expect(screen.getByTestId('oco-target').textContent).toBe('gone (stop fired)');
    expect(screen.getByTestId('oco-stop').textContent).toBe('₹2,300.00 → limit ₹2,290.00');
  });
});

describe('Modify sheet of an OCO', () => {
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

describe('an order row (every mold alike)', () => {
  it('names a limit order Limit, whether it rests or filled at once, and a market AMO Market', () => {
    const limit = { ...ORDER, order_type: 'limit' as const };
    expect(orderLine(limit).typeKey).toBe('trade.limit.label');
    expect(orderLine({ ...limit, status: 0 }).typeKey).toBe('trade.limit.label');
    expect(orderLine({ ...ORDER, order_type: 'market', amo: true, status: 0 }).typeKey).toBe('trade.market');
  });

  it('always names the product and a stock order’s validity; a lot or an application has no validity', () => {
    expect(orderLine(ORDER)).toMatchObject({
      productKey: 'trade.product.delivery',
      validityKey: 'trade.validity.day',
    });
    expect(orderLine({ ...ORDER, product: 'intraday', validity: 'ioc' })).toMatchObject({
      productKey: 'trade.product.intraday',
      validityKey: 'trade.validity.ioc',
    });
    const lot = { ...ORDER, mold: 'bulk' as const, state: 'buy' as const, status: 1 };
    expect(orderLine(lot)).toMatchObject({
      typeKey: 'records.row.block',
      productKey: 'trade.product.delivery',
      validityKey: null,
    });
    expect(orderLine({ ...lot, mold: 'finalize' }).typeKey).toBe('records.row.qip');
    expect(orderLine({ ...lot, mold: 'ipo' }).typeKey).toBe('records.row.ipo');
  });

  it('reads filled/quantity and the status from the server’s state, with why an order ended unfilled', () => {
    const ioc = {
      ...ORDER,
      state: 'buy' as const,
      status: 2,
      validity: 'ioc' as const,
      reason: 'errors.iocMarketClosed',
    };
    expect(orderLine(ioc)).toMatchObject({
      outcome: 'cancelled',
      statusKey: 'records.status.cancelled',
      filled: 0,
      count: 10,
      reasonKey: 'errors.iocMarketClosed',
      price: 3770,
    });
    // Cancelled by the user: no reason from the server, the status says what happened.
    expect(orderLine({ ...ORDER, status: 2 })).toMatchObject({
      reasonKey: 'trade.result.cancelledHint',
      shortReasonKey: 'records.reason.byYou',
    });
    expect(orderLine(ORDER)).toMatchObject({ filled: 10, count: 10, reasonKey: null, price: 3772.06 });
    // A refused block buy moved nothing, and says why.
    const refused = {
      ...ORDER,
      mold: 'bulk' as const,
      state: 'buy' as const,
      status: 2,
      reason: 'errors.insufficientFunds',
    };
    expect(orderLine(refused)).toMatchObject({
      outcome: 'rejected',
      tone: 'danger',
      filled: 0,
      reasonKey: 'errors.insufficientFunds',
    });
    // SPEC: an IPO application shows its quantity only at status 0 or 2; one nothing was allotted to says so.
    const ipo = { ...ORDER, mold: 'ipo' as const, state: 'buy' as const };
    expect([1, 2, 3].map((status) => orderLine({ ...ipo, status }).count)).toEqual([null, 10, null]);
    expect(orderLine({ ...ipo, status: 3 }).reasonKey).toBe('records.notAllotted');
  });

  it('prints a price as money, to the paisa, through the one money formatter', () => {
    const inr = { unit: 'INR', symbol: '₹' };
    expect(priceAsMoney(1969.096, inr)).toBe('₹1,969.10');
    expect(priceAsMoney(123456.785, inr)).toBe('₹1,23,456.79');
    expect(priceAsMoney(21.12, { unit: 'USD', symbol: '$' })).toBe('$21.12');
  });

  it('shows a cancelled order’s reason on its row and in its detail, with its times in IST', () => {
    renderCard({
      ...ORDER,
      state: 'buy',
      status: 2,
      validity: 'ioc',
      reason: 'errors.iocUnfilled',
      updated_at: ORDER.created_at + 1000,
    });
    expect(screen.getByTestId('order-status').textContent).toBe('Cancelled');
    // The row says it in a few words, the detail in full.
    expect(screen.getByTestId('order-reason').textContent).toBe('IOC: not filled at once');
    expect(screen.getByTestId('detail-reason').textContent).toBe(
      'Not filled at once at your price, so the IOC order was cancelled. Nothing was bought or sold.',
    );
    expect(screen.getByTestId('order-filled').textContent).toBe('0/10');
    expect(screen.getByTestId('detail-placed').textContent).toBe('24/11/2026, 15:00 IST');
    expect(screen.queryByRole('button', { name: /Contract note/ })).toBeNull();
  });
});
