import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BlockItem, FundOrder, Ipo } from '#shared/contract/invest';
import type { OrderQuote, OrderRow } from '#shared/contract/trading';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { LotSellDialog } from '../../src/screens/_parts/invest/LotSellDialog';
import { UsdRateLine } from '../../src/screens/_parts/invest/UsdRateLine';
import { usdRateOf } from '../../src/screens/_parts/invest/useUsdRate';
import { BlockOrders } from '../../src/screens/BlockOrders/BlockOrdersScreen';
import { BlockBuyDialog } from '../../src/screens/BlockTrading/BlockBuyDialog';
import { useBlockBuy } from '../../src/screens/BlockTrading/useBlockTrading';
import FundOrdersScreen from '../../src/screens/FundOrders/FundOrdersScreen';
import { useIpoApply } from '../../src/screens/Ipo/useIpo';
import { ipoOrderStatus, showsQuantity } from '../../src/screens/IpoOrders/useIpoOrders';
import { useUi } from '../../src/store/ui';
import { fake } from '../support/fake-worker';
import { ORDER } from '../support/trading-screen';

/** The invest screens' own logic: the block buy rules, the idempotency key, status labels, fund periods. */

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
  return { useWatch: () => watchResult(watched) };
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

describe('block / QIP buy rules (SPEC §5)', () => {
  // 300,090.00 pays for exactly 300 at 1,000 + 0.03 %.
  const balance = '300090.00';

  it('starts at the minimum, and the minus button stops there with a toast of the minimum', () => {
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, USD_LIVE, () => {}));
    expect(result.current.text).toBe('100');
    act(() => result.current.decrease());
    expect(result.current.text).toBe('100');
    expect(toasts()).toEqual(['block.minToast']);
    expect(useUi.getState().toasts[0]?.params).toEqual({ min: 100 });
  });

  it('caps a typed quantity at the default maximum the balance pays for, and takes digits only', () => {
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, USD_LIVE, () => {}));
    expect(result.current.maximum).toBe(300);
    act(() => result.current.change('9a99'));
    expect(result.current.text).toBe('300');
    expect(result.current.chargeMinor).toBe(30_009_000);
    expect(result.current.atMax).toBe(true);
  });

  it('caps the quantity at what the offer has left, even when the balance pays for more', () => {
    const { result } = renderHook(() =>
      useBlockBuy({ ...RELIANCE, remaining: 200 }, balance, USD_LIVE, () => {}),
    );
    expect(result.current.maximum).toBe(200);
    act(() => result.current.change('250'));
    expect(result.current.text).toBe('200');
  });

  it('shows the below-minimum hint only after 3 s, restarting on each keystroke', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, USD_LIVE, () => {}));
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

  it('asks for every field, then the minimum, before sending anything', async () => {
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, USD_LIVE, () => {}));
    await act(() => result.current.submit());
    expect(toasts()).toEqual(['block.requiredFields']);
    act(() => result.current.setPin('123456'));
    act(() => result.current.change('99'));
    await act(() => result.current.submit());
    expect(toasts()).toContain('errors.belowMinimumQuantity');
    expect(result.current.hint).toBe(true);
    expect(fake.calls).toEqual([]);
  });

  it('clears a wrong code; a lost answer waits for the server, and only "never received" sends again, with its key', async () => {
    const done = vi.fn();
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, USD_LIVE, done));
    act(() => result.current.setPin('111111'));
    fake.answers = [{ ok: false, error: 'errors.fundPasswordWrong', status: 400 }];
    await act(() => result.current.submit());
    expect(result.current.pin).toBe('');
    expect(result.current.pinError).toBe('errors.fundPasswordWrong');

    act(() => result.current.setPin('246810'));
    fake.answers = [
      { ok: false, error: 'core.money.unconfirmed', status: 0 },
      { ok: true, data: {} },
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
    expect(toasts()).toContain('block.success');
  });

  it("converts a US item at the server's USD rate before the fee", () => {
    const amd: BlockItem = { ...RELIANCE, tag: 'AMD', type: 'US', price: 21.15 };
    const { result } = renderHook(() => useBlockBuy(amd, '1000000.00', USD_LIVE, () => {}));
    expect(result.current.converts).toBe(true);
    // $2,115.00 + $0.63 fee; × 88.5 = ₹187,177.50 + ₹56.15 fee (56.1525 → 56.15)
    expect(result.current.totalLocalMinor).toBe(211_500 + 63);
    expect(result.current.chargeMinor).toBe(18_717_750 + 5615);
    // The configured rate in /v2/config (20) plays no part.
    const other = renderHook(() => useBlockBuy(amd, '1000000.00', usd(90.1234, true), () => {}));
    // $2,115.00 × 90.1234 = ₹190,610.991 → 190,610.99; fee 57.1833 → 57.18
    expect(other.result.current.chargeMinor).toBe(19_061_099 + 5718);
  });

  it('cannot buy a US item without a fresh rate, nor before the rate is known; an Indian one still can', async () => {
    const amd: BlockItem = { ...RELIANCE, tag: 'AMD', type: 'US', price: 21.15 };
    const stale = renderHook(() => useBlockBuy(amd, '1000000.00', usd(88.5, false), () => {}));
    act(() => stale.result.current.setPin('123456'));
    expect(stale.result.current.rateRefused).toBe(true);
    expect(stale.result.current.valid).toBe(false);
    await act(() => stale.result.current.submit());
    expect(toasts()).toEqual(['errors.rateNotUpdated']);
    const unknown = renderHook(() => useBlockBuy(amd, '1000000.00', usd(null, false), () => {}));
    expect(unknown.result.current.chargeMinor).toBeNull();
    expect(unknown.result.current.feeMinor).toBeNull();
    expect(fake.calls).toEqual([]);
    const inr = renderHook(() => useBlockBuy(RELIANCE, '1000000.00', usd(88.5, false), () => {}));
    act(() => inr.result.current.setPin('123456'));
    expect(inr.result.current.rateRefused).toBe(false);
    expect(inr.result.current.valid).toBe(true);
    expect(inr.result.current.chargeMinor).toBe(10_000_000 + 3000);
  });
});

describe('the USD rate line (issue 14)', () => {
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
  const row = (status: number) => ({ status }) as OrderRow;
  it('reads applications as pending / success / failed and sales as success or failed', () => {
    expect([1, 2, 3].map((s) => ipoOrderStatus(row(s), '0').key)).toEqual([
      'ipo.status.pending',
      'ipo.status.success',
      'ipo.status.failed',
    ]);
    expect(ipoOrderStatus(row(1), '1').key).toBe('ipo.status.success');
    expect(ipoOrderStatus(row(3), '1').key).toBe('ipo.status.failed');
  });
  it('shows the quantity only for status 0 or 2', () => {
    expect([0, 1, 2, 3].map((s) => showsQuantity(row(s)))).toEqual([true, false, true, false]);
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

  it('shows a refused buy as failed with its reason instead of a total', () => {
    watched = { rows: [order(2, 2, 'errors.insufficientFunds'), order(1, 1, null)] };
    render(
      <MemoryRouter>
        <BlockOrders mold="bulk" />
      </MemoryRouter>,
    );
    const [failed, success] = screen.getAllByRole('listitem');
    expect(failed!.textContent).toContain('Failed');
    expect(failed!.textContent).toContain('ReasonInsufficient funds');
    expect(failed!.textContent).not.toContain('Total amount');
    expect(success!.textContent).toContain('Total amount₹1,00,030.00');
    expect(success!.textContent).not.toContain('Reason');
  });
});

describe('fund orders screen', () => {
  const order = (id: number, days: number, status: string): FundOrder => ({
    id,
    amount: '25000.00',
    expected_return: 1.1,
    expected_return_pa: '4.23',
    status: status as FundOrder['status'],
    end_time: 1_800_000_000_000,
    created_at: 1_790_000_000_000,
    profit: status === 'completed' ? '275.00' : null,
    project: { name: `Fund ${id}`, investment_period: days, min_return: 0.8, max_return: 1.4 },
  });

  it('shows periods in days under 30, else whole months, and unknown states as such', () => {
    watched = { rows: [order(1, 7, 'active'), order(2, 95, 'completed'), order(3, 30, 'paused')] };
    render(
      <MemoryRouter>
        <FundOrdersScreen />
      </MemoryRouter>,
    );
    const cards = screen.getAllByRole('listitem');
    expect(cards[0]!.textContent).toContain('7 days');
    expect(cards[0]!.textContent).toContain('Active');
    expect(cards[1]!.textContent).toContain('3 months');
    expect(cards[1]!.textContent).toContain('+₹275.00');
    expect(cards[2]!.textContent).toContain('1 month');
    expect(cards[2]!.textContent).toContain('Unknown state');
  });
});

describe('selling a lot (issue 30)', () => {
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
    available: '0.00',
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

describe('buying a block lot on a closed market (issue 30)', () => {
  it('says when the market opens, in the exchange’s time, and offers no buy', () => {
    const closed: BlockItem = {
      ...RELIANCE,
      session: {
        open: false,
        opens_at: Date.UTC(2026, 10, 30, 3, 45),
        closes_at: Date.UTC(2026, 10, 27, 10, 0),
      },
    };
    render(
      <BlockBuyDialog
        item={closed}
        balance="500000.00"
        alwaysConvert={false}
        usd={USD_LIVE}
        onClose={() => {}}
        onDone={() => {}}
      />,
      { wrapper: MemoryRouter },
    );
    expect(screen.getByTestId('block-closed').textContent).toBe(
      "Market closed — block lots are bought at the market's price while it is open. Opens Mon 09:15 IST.",
    );
    expect(screen.getByRole('button', { name: 'Confirm' }).hasAttribute('disabled')).toBe(true);
  });
});
