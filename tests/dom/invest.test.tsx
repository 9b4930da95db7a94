import { act, cleanup, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockItem, Ipo } from '#shared/contract/invest';
import type { OrderQuote, OrderRow } from '#shared/contract/trading';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { LotSellDialog } from '../../src/screens/_parts/invest/LotSellDialog';
import { UsdRateLine } from '../../src/screens/_parts/invest/UsdRateLine';
import { usdRateOf } from '../../src/screens/_parts/invest/useUsdRate';
import { orderLine } from '../../src/screens/_parts/trading/orderLine';
import { BlockOrders } from '../../src/screens/BlockOrders/BlockOrdersScreen';
import { BlockBuyDialog } from '../../src/screens/BlockTrading/BlockBuyDialog';
import { useBlockBuy } from '../../src/screens/BlockTrading/useBlockTrading';
import { useIpoApply } from '../../src/screens/Ipo/useIpo';
import { useUi } from '../../src/store/ui';
import { fake } from '../support/fake-worker';
import { ORDER } from '../support/trading-screen';

/** The invest screens' own logic: the block buy rules, the idempotency key, status labels. */

const config = parseConfig([
  { tag: 'currency_unit', value: 'INR' },
  { tag: 'rate', value: '20' },
]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

let watched: unknown;
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  // A contract note is asked for only once opened: until then the watched answer is the quote's.
  return { useWatch: (name: string) => watchResult(name === 'orderContract' ? undefined : watched) };
});

/** The server's USD rate (`fxRate`) as the screen would hold it. */
function usd(rate: number | null, fresh: boolean) {
  const at = Date.now();
  return usdRateOf({
    data: { unit: 'INR', rate, source: fresh ? 'live' : 'configured', as_of: at, fresh, symbol: 'USDINR=X' },
    error: null,
    loading: false,
    updatedAt: at,
    source: 'network',
    stale: false,
    intervalMs: 5000,
  });
}
const USD_LIVE = usd(88.5, true);

const toasts = () => useUi.getState().toasts.map((t) => t.text);

const RELIANCE: BlockItem = {
  id: 1,
  tag: 'RELIANCE.NS',
  name: 'Reliance Industries',
  price: 1000,
  market_price: 1040,
  count: 100,
  status: 1,
  type: 'IN',
  mold: 'bulk',
  decimals: 2,
  remaining: 2000,
  session: { open: true, opens_at: null, closes_at: Date.UTC(2026, 10, 24, 10, 0) },
};

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  fake.reset();
  useUi.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('IPO application quantity (SPEC §5)', () => {
  // Lots of 100 from 200 to 1,000 (the IPO's own 150..1,050 rounded inwards to whole lots).
  const ipo: Ipo = {
    id: 7,
    series: 'EQ',
    symbol: 'TATATECH.NS',
    company_name: 'Tata Technologies',
    status: 'Forthcoming',
    issue_price: 500,
    min: 150,
    max: 1050,
    issue_start_date: 0,
    issue_end_date: 0,
    listing_date: 0,
    region: 'IN',
    window: 'open',
    band_low: null,
    lot: 100,
    allotment_date: null,
  };

  it('keeps the digits as typed and means them clamped to whole lots; leaving the field writes that back', () => {
    const { result } = renderHook(() => useIpoApply(ipo, '1000000.00', () => {}));
    expect(result.current.text).toBe('200');
    expect(result.current.atMin).toBe(true);
    act(() => result.current.change('3x55'));
    expect(result.current.text).toBe('355');
    expect(result.current.quantity).toBe(300);
    act(() => result.current.settle());
    expect(result.current.text).toBe('300');
    act(() => result.current.change(''));
    expect(result.current.quantity).toBe(200);
  });

  it('steps a lot at a time and stops at the bounds', () => {
    const { result } = renderHook(() => useIpoApply(ipo, '1000000.00', () => {}));
    act(() => result.current.decrease());
    expect(result.current.text).toBe('200');
    act(() => result.current.increase());
    expect(result.current.text).toBe('300');
    act(() => result.current.change('990'));
    act(() => result.current.increase());
    expect(result.current.text).toBe('1000');
    expect(result.current.atMax).toBe(true);
  });
});

/**
 * The server's figures for a buy of `count` RELIANCE lots at the block price 1,000 (`orderQuote`):
 * a stock buy's charges, the balance, and the largest quantity it affords, charges included.
 */
function blockQuote(count: number, affordable = 300, available = '303000.00'): OrderQuote {
  return {
    tag: 'RELIANCE.NS',
    side: 'buy',
    count,
    price: 1000,
    value: `${count * 1000}.00`,
    charges: {
      brokerage: '20.00',
      stt: '100.00',
      exchange: '2.97',
      sebi: '0.10',
      stamp: '15.00',
      gst: '4.17',
      total: '142.24',
    },
    net: `${count * 1000 + 142}.24`,
    protection: '0.00',
    limit: null,
    required: `${count * 1000 + 142}.24`,
    available,
    blocked: '0.00',
    held: 0,
    affordable,
    as_of: Date.UTC(2026, 10, 24, 9, 30),
    session: { open: true, opens_at: null, closes_at: Date.UTC(2026, 10, 24, 10, 0) },
  };
}

describe('block / QIP buy rules (SPEC §5)', () => {
  beforeEach(() => {
    watched = blockQuote(100);
  });

  it('starts at the minimum, and the minus button stops there with a toast of the minimum', () => {
    const { result } = renderHook(() => useBlockBuy(RELIANCE, USD_LIVE, () => {}));
    expect(result.current.text).toBe('100');
    act(() => result.current.decrease());
    expect(result.current.text).toBe('100');
    expect(toasts()).toEqual(['block.minToast']);
    expect(useUi.getState().toasts[0]?.params).toEqual({ min: 100 });
  });

  it('caps a typed quantity at what the server says the balance pays for, charges included, and takes digits only', () => {
    const { result } = renderHook(() => useBlockBuy(RELIANCE, USD_LIVE, () => {}));
    expect(result.current.maximum).toBe(300);
    act(() => result.current.change('9a99'));
    expect(result.current.text).toBe('300');
    expect(result.current.atMax).toBe(true);
  });

  it('caps the quantity at what the offer has left, even when the balance pays for more', () => {
    const { result } = renderHook(() => useBlockBuy({ ...RELIANCE, remaining: 200 }, USD_LIVE, () => {}));
    expect(result.current.maximum).toBe(200);
    act(() => result.current.change('250'));
    expect(result.current.text).toBe('200');
  });

  it('shows the below-minimum hint only after 3 s, restarting on each keystroke', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useBlockBuy(RELIANCE, USD_LIVE, () => {}));
    act(() => result.current.change('5'));
    act(() => vi.advanceTimersByTime(2000));
    act(() => result.current.change('50'));
    act(() => vi.advanceTimersByTime(2999));
    expect(result.current.hint).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.hint).toBe(true);
    act(() => result.current.change('150'));
    expect(result.current.hint).toBe(false);
  });

  it('goes to review only with a quantity, at least the minimum, that the balance covers; then asks for the password', async () => {
    const { result, rerender } = renderHook(() => useBlockBuy(RELIANCE, USD_LIVE, () => {}));
    act(() => result.current.change(''));
    act(() => result.current.review());
    expect(toasts()).toEqual(['block.requiredFields']);
    act(() => result.current.change('99'));
    act(() => result.current.review());
    expect(toasts()).toContain('errors.belowMinimumQuantity');
    expect(result.current.hint).toBe(true);
    expect(result.current.step).toBe('order');
    // The server says this balance cannot pay for 100 with its charges.
    watched = blockQuote(100, 0, '100100.00');
    act(() => result.current.change('100'));
    expect(result.current.blocked).toBe('errors.insufficientFunds');
    watched = blockQuote(100);
    rerender();
    act(() => result.current.review());
    expect(result.current.step).toBe('review');
    await act(() => result.current.submit());
    expect(toasts()).toContain('block.requiredFields');
    expect(result.current.pinError).toBe('hint.tradePasswordInvalid');
    expect(fake.calls).toEqual([]);
  });

  it('clears a wrong code; a lost answer waits for the server, and only "never received" sends again, with its key', async () => {
    const done = vi.fn();
    const { result } = renderHook(() => useBlockBuy(RELIANCE, USD_LIVE, done));
    act(() => result.current.review());
    act(() => result.current.setPin('111111'));
    fake.answers = [{ ok: false, error: 'errors.fundPasswordWrong', status: 400 }];
    await act(() => result.current.submit());
    expect(result.current.pin).toBe('');
    expect(result.current.pinError).toBe('errors.fundPasswordWrong');
    expect(result.current.failure).toBe('errors.fundPasswordWrong');

    act(() => result.current.setPin('246810'));
    const bought: OrderRow = { ...ORDER, no: 'B1', mold: 'bulk', state: 'buy', tag: 'RELIANCE.NS' };
    fake.answers = [
      { ok: false, error: 'core.money.unconfirmed', status: 0 },
      { ok: true, data: bought },
    ];
    let submitted: Promise<void> = Promise.resolve();
    await act(async () => {
      submitted = result.current.submit();
    });
    // Unconfirmed: nothing failed, nothing is sent again, the button says what is going on.
    expect(result.current.call.phase).toBe('unconfirmed');
    expect(result.current.busy).toBe(true);
    expect(toasts()).not.toContain('block.failed');
    const key = fake.calls[1]!.key!;
    act(() => {
      fake.emit('money', { key: 'someone-else', state: 'missing', name: 'dealBuy', at: 0 });
    });
    expect(result.current.call.phase).toBe('unconfirmed');
    act(() => {
      fake.emit('money', { key, state: 'checking', name: 'dealBuy', at: 0 });
    });
    expect(result.current.call.phase).toBe('checking');
    act(() => {
      fake.emit('money', { key, state: 'missing', name: 'dealBuy', at: 0 });
    });
    expect(result.current.call.phase).toBe('missing');
    expect(fake.calls).toHaveLength(2);
    await act(async () => {
      result.current.call.resend();
      await submitted;
    });
    expect(fake.calls.map((c) => c.input)).toEqual([
      { tag: 'RELIANCE.NS', count: 100, price: 1000, mold: 'bulk', id: 1, stock_password: '111111' },
      { tag: 'RELIANCE.NS', count: 100, price: 1000, mold: 'bulk', id: 1, stock_password: '246810' },
      { tag: 'RELIANCE.NS', count: 100, price: 1000, mold: 'bulk', id: 1, stock_password: '246810' },
    ]);
    expect(fake.calls[0]!.key).not.toBe(fake.calls[1]!.key);
    expect(fake.calls[2]!.key).toBe(fake.calls[1]!.key);
    expect(done).toHaveBeenCalledTimes(1);
    // The result is the order the server answered, not a toast.
    expect(result.current.result).toEqual(bought);
  });

  it('shows a US lot’s dollar amount beside the server’s rupee figures; without a fresh rate it cannot be reviewed', () => {
    const amd: BlockItem = { ...RELIANCE, tag: 'AMD', type: 'US', price: 21.15 };
    const { result } = renderHook(() => useBlockBuy(amd, USD_LIVE, () => {}));
    expect(result.current.converts).toBe(true);
    expect(result.current.valueLocalMinor).toBe(211_500);
    const stale = renderHook(() => useBlockBuy(amd, usd(88.5, false), () => {}));
    expect(stale.result.current.rateRefused).toBe(true);
    act(() => stale.result.current.review());
    expect(toasts()).toEqual(['errors.rateNotUpdated']);
    expect(stale.result.current.step).toBe('order');
    const inr = renderHook(() => useBlockBuy(RELIANCE, usd(88.5, false), () => {}));
    expect(inr.result.current.rateRefused).toBe(false);
    expect(inr.result.current.converts).toBe(false);
    expect(fake.calls).toEqual([]);
  });
});

describe('the block sheet: order → review → result → contract note', () => {
  beforeEach(() => {
    watched = blockQuote(100);
  });

  it('prices the order with the server’s charges, itemises them on review, then shows the filled order', async () => {
    const done = vi.fn();
    render(<BlockBuyDialog item={RELIANCE} usd={USD_LIVE} onClose={() => {}} onDone={done} />, {
      wrapper: MemoryRouter,
    });
    const figures = screen.getByTestId('block-figures');
    expect(figures.textContent).toContain('Charges₹142.24');
    expect(screen.getByTestId('block-total').textContent).toBe('₹1,00,142.24');
    // A rupee lot says nothing of dollars.
    expect(screen.queryByTestId('usd-rate')).toBeNull();
    expect(screen.queryByText(/USD/)).toBeNull();
    // No password before the review.
    expect(screen.queryByLabelText('Transaction password')).toBeNull();
    act(() => screen.getByRole('button', { name: 'Review' }).click());

    const review = screen.getByTestId('block-review');
    for (const line of [
      'Brokerage₹20.00',
      'Securities transaction tax (STT)₹100.00',
      'Stamp duty₹15.00',
      'GST₹4.17',
    ])
      expect(review.textContent).toContain(line);
    expect(review.textContent).toContain('Order typeBlock deal');
    expect(review.textContent).toContain('ProductDelivery');
    expect(screen.getByTestId('review-net').textContent).toBe('₹1,00,142.24');
    const confirm = screen.getByRole('button', { name: 'Confirm buy' });
    expect(confirm.getAttribute('aria-disabled')).toBe('true');

    const bought: OrderRow = {
      ...ORDER,
      no: 'B9',
      mold: 'bulk',
      state: 'buy',
      status: 1,
      tag: 'RELIANCE.NS',
      count: 100,
      price: 1000,
      sell_price: null,
      profit: null,
      fee: '142.24',
      value: '100000.00',
      price_all: '100142.24',
    };
    fake.answers = [{ ok: true, data: bought }];
    const pin = screen.getByLabelText('Transaction password');
    act(() => {
      // The PinInput keeps digits only, through React's change event.
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(pin, '246810');
      pin.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => {
      screen.getByRole('button', { name: 'Confirm buy' }).click();
    });
    expect(done).toHaveBeenCalledTimes(1);
    const result = screen.getByTestId('trade-result');
    expect(result.getAttribute('data-outcome')).toBe('filled');
    expect(screen.getByTestId('result-total').textContent).toBe('₹1,00,142.24');
    expect(screen.getByRole('button', { name: 'Contract note' })).toBeTruthy();
  });

  it('on a closed market says when it opens, in the exchange’s time, and its review buys nothing', () => {
    const closed: BlockItem = {
      ...RELIANCE,
      session: {
        open: false,
        opens_at: Date.UTC(2026, 10, 30, 3, 45),
        closes_at: Date.UTC(2026, 10, 27, 10, 0),
      },
    };
    render(<BlockBuyDialog item={closed} usd={USD_LIVE} onClose={() => {}} onDone={() => {}} />, {
      wrapper: MemoryRouter,
    });
    expect(screen.getByTestId('block-closed').textContent).toBe(
      "Market closed — block lots are bought at the market's price while it is open. Opens Mon 09:15 IST.",
    );
    act(() => screen.getByRole('button', { name: 'Review' }).click());
    expect(screen.getByTestId('block-closed')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Confirm buy' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('the USD rate line', () => {
  it('shows the live rate with its source and time, calm', () => {
    render(<UsdRateLine rate={usd(88.7123, true)} />);
    const line = screen.getByTestId('usd-rate');
    expect(line.textContent).toMatch(/^Rate: 1 USD = ₹88\.7123Live market rate/);
    expect(line.querySelector('[data-stale]')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('labels the last rate known stale and says the rate has not been updated when none is fresh', () => {
    render(<UsdRateLine rate={usd(91, false)} />);
    const line = screen.getByTestId('usd-rate');
    expect(line.textContent).toMatch(/^Rate: 1 USD = ₹91\.00/);
    expect(line.textContent).not.toContain('Live market rate');
    expect(line.querySelector('[data-stale]')).not.toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Exchange rate has not been updated');
  });
});

describe('IPO order labels (SPEC §4)', () => {
  const row = (status: number, state: 'buy' | 'sell' = 'buy'): OrderRow => ({
    ...ORDER,
    mold: 'ipo',
    state,
    status,
  });
  it('reads applications as pending / success / not allotted and sales as success or failed', () => {
    expect([1, 2, 3].map((s) => orderLine(row(s)).statusKey)).toEqual([
      'records.status.pending',
      'records.status.success',
      'records.status.cancelled',
    ]);
    expect(orderLine(row(3)).reasonKey).toBe('records.notAllotted');
    expect(orderLine(row(1, 'sell')).statusKey).toBe('records.status.success');
    expect(orderLine(row(3, 'sell')).statusKey).toBe('records.status.failed');
  });
  it('shows the quantity only for status 0 or 2', () => {
    expect([0, 1, 2, 3].map((s) => orderLine(row(s)).count)).toEqual([ORDER.count, null, ORDER.count, null]);
  });
});

describe('block orders screen', () => {
  const order = (id: number, status: number, reason: string | null): OrderRow => ({
    ...ORDER,
    id,
    no: `B${id}`,
    tag: 'RELIANCE.NS',
    name: 'Reliance Industries',
    market: 'NSE',
    mold: 'bulk',
    state: 'buy',
    status,
    count: 100,
    price: 1000,
    sell_price: null,
    fee: status === 1 ? '30.00' : '0.00',
    price_all: status === 1 ? '100030.00' : '0.00',
    profit: null,
    created_at: 1_790_000_000_000,
    updated_at: 1_790_000_000_000,
    limit_price: null,
    sellable: status === 1,
    reason,
  });

  it('shows a refused buy as failed with its reason on its row, and its detail without a total', () => {
    watched = { rows: [order(2, 2, 'errors.insufficientFunds'), order(1, 1, null)] };
    render(
      <MemoryRouter>
        <BlockOrders mold="bulk" />
      </MemoryRouter>,
    );
    const [failed, success] = screen.getAllByRole('listitem');
    expect(within(failed!).getByTestId('order-status').textContent).toBe('Failed');
    expect(within(failed!).getByTestId('order-reason').textContent).toBe('Insufficient funds');
    expect(within(failed!).getByTestId('order-type').textContent).toBe('Block');
    expect(within(failed!).getByTestId('order-product').textContent).toBe('Delivery');
    expect(within(failed!).getByTestId('order-filled').textContent).toBe('0/100');
    expect(within(success!).getByTestId('order-filled').textContent).toBe('100/100');
    expect(within(success!).getByTestId('order-price').textContent).toBe('₹1,000.00');
    expect(within(success!).queryByTestId('order-reason')).toBeNull();

    fireEvent.click(within(failed!).getByRole('button'));
    let detail = screen.getByRole('dialog', { name: 'Buy RELIANCE' });
    expect(within(detail).getByTestId('detail-reason').textContent).toBe('Insufficient funds');
    expect(detail.textContent).not.toContain('Total amount');
    fireEvent.click(within(detail).getByRole('button', { name: 'Done' }));
    fireEvent.click(within(success!).getByRole('button'));
    detail = screen.getByRole('dialog', { name: 'Buy RELIANCE' });
    expect(detail.textContent).toContain('Total amount₹1,00,030.00');
    expect(within(detail).getByRole('button', { name: 'Sell RELIANCE' })).toBeTruthy();
  });
});

describe('selling a lot', () => {
  const LOT: OrderRow = {
    ...ORDER,
    no: 'B77',
    tag: 'RELIANCE.NS',
    mold: 'bulk',
    state: 'buy',
    count: 100,
    price: 2412.37,
    sellable: true,
  };
  /** The server's figures for the whole lot: 100 × 2,530.50, a stock sell's charges. */
  const quoteAt = (open: boolean): OrderQuote => ({
    tag: 'RELIANCE.NS',
    side: 'sell',
    count: 100,
    price: 2530.5,
    value: '253050.00',
    charges: {
      brokerage: '20.00',
      stt: '253.05',
      exchange: '7.84',
      sebi: '0.25',
      stamp: '0.00',
      gst: '5.07',
      total: '286.21',
    },
    net: '252763.79',
    protection: '0.00',
    limit: null,
    required: '0.00',
    available: '0.00',
    blocked: '0.00',
    held: 0,
    affordable: 0,
    as_of: Date.UTC(2026, 10, 27, 10, 0),
    // Saturday: NSE opens Monday 09:15 IST.
    session: open
      ? { open: true, opens_at: null, closes_at: Date.UTC(2026, 10, 27, 10, 0) }
      : { open: false, opens_at: Date.UTC(2026, 10, 30, 3, 45), closes_at: Date.UTC(2026, 10, 27, 10, 0) },
  });

  it("shows the server's charges and what arrives, and sells in session", () => {
    watched = quoteAt(true);
    render(<LotSellDialog order={LOT} onClose={() => {}} onDone={() => {}} />, { wrapper: MemoryRouter });
    expect(screen.getByTestId('sell-price').textContent).toBe('₹2,530.50');
    expect(screen.getByText('Securities transaction tax (STT)')).toBeTruthy();
    expect(screen.getByTestId('sell-net').textContent).toBe('₹2,52,763.79');
    expect(screen.queryByTestId('sell-closed')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sell all' }).hasAttribute('disabled')).toBe(false);
  });

  it('on a closed market says when it opens, in the exchange’s time, and offers no sale', () => {
    watched = quoteAt(false);
    render(<LotSellDialog order={LOT} onClose={() => {}} onDone={() => {}} />, { wrapper: MemoryRouter });
    expect(screen.getByTestId('sell-closed').textContent).toBe(
      'Market closed — a holding sells at the market price while the market is open. Opens Mon 09:15 IST.',
    );
    expect(screen.getByRole('button', { name: 'Sell all' }).hasAttribute('disabled')).toBe(true);
  });
});
