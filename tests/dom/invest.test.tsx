import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/api/useConfig';
import { initI18n } from '../../src/i18n/index';
import { useBlockBuy } from '../../src/screens/BlockTrading/useBlockTrading';
import FundOrdersScreen from '../../src/screens/FundOrders/FundOrdersScreen';
import { ipoOrderStatus, showsQuantity } from '../../src/screens/IpoOrders/useIpoOrders';
import type { BlockItem, FundOrder } from '../../src/shared/contract/invest';
import type { OrderRow } from '../../src/shared/contract/trading';
import { useUi } from '../../src/store/ui';

/** The invest screens' own logic: the block buy rules, the idempotency key, status labels, fund periods. */

const config = parseConfig([
  { tag: 'currency_unit', value: 'INR' },
  { tag: 'rate', value: '20' },
]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));

const calls: Array<{ name: string; input: unknown; key: string | undefined }> = [];
let answers: Array<{ ok: true; data: unknown } | { ok: false; error: string; status: number }> = [];
vi.mock('../../src/api/client', () => ({
  call: async (name: string, input: unknown, options: { idempotencyKey?: string } = {}) => {
    calls.push({ name, input, key: options.idempotencyKey });
    return answers.shift() ?? { ok: true, data: null };
  },
  newIdempotencyKey: () => crypto.randomUUID(),
}));

let watched: unknown;
vi.mock('../../src/api/hooks', () => ({
  useWatch: () => ({
    data: watched,
    error: null,
    loading: false,
    updatedAt: 1,
    source: 'network',
    stale: false,
    reload: () => {},
  }),
}));

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
};

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  calls.length = 0;
  answers = [];
  useUi.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('block / QIP buy rules (SPEC §5)', () => {
  // 300,090.00 pays for exactly 300 at 1,000 + 0.03 %.
  const balance = '300090.00';

  it('starts at the minimum, and the minus button stops there with a toast of the minimum', () => {
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, () => {}));
    expect(result.current.text).toBe('100');
    act(() => result.current.decrease());
    expect(result.current.text).toBe('100');
    expect(toasts()).toEqual(['block.minToast']);
    expect(useUi.getState().toasts[0]?.params).toEqual({ min: 100 });
  });

  it('caps a typed quantity at the default maximum the balance pays for, and takes digits only', () => {
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, () => {}));
    expect(result.current.maximum).toBe(300);
    act(() => result.current.change('9a99'));
    expect(result.current.text).toBe('300');
    expect(result.current.chargeMinor).toBe(30_009_000);
    expect(result.current.atMax).toBe(true);
  });

  it('shows the below-minimum hint only after 3 s, restarting on each keystroke', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, () => {}));
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
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, () => {}));
    await act(() => result.current.submit());
    expect(toasts()).toEqual(['block.requiredFields']);
    act(() => result.current.setPin('123456'));
    act(() => result.current.change('99'));
    await act(() => result.current.submit());
    expect(toasts()).toContain('errors.belowMinimumQuantity');
    expect(result.current.hint).toBe(true);
    expect(calls).toEqual([]);
  });

  it('clears a wrong code; a retry after a timeout reuses its key, a new attempt does not', async () => {
    const done = vi.fn();
    const { result } = renderHook(() => useBlockBuy(RELIANCE, balance, done));
    act(() => result.current.setPin('111111'));
    answers = [{ ok: false, error: 'errors.fundPasswordWrong', status: 400 }];
    await act(() => result.current.submit());
    expect(result.current.pin).toBe('');
    expect(result.current.pinError).toBe('errors.fundPasswordWrong');

    act(() => result.current.setPin('246810'));
    answers = [
      { ok: false, error: 'errors.timeout', status: 0 },
      { ok: true, data: {} },
    ];
    await act(() => result.current.submit());
    await act(() => result.current.submit());
    expect(calls.map((c) => c.input)).toEqual([
      { tag: 'RELIANCE.NS', count: 100, price: 1000, mold: 'bulk', id: 1, stock_password: '111111' },
      { tag: 'RELIANCE.NS', count: 100, price: 1000, mold: 'bulk', id: 1, stock_password: '246810' },
      { tag: 'RELIANCE.NS', count: 100, price: 1000, mold: 'bulk', id: 1, stock_password: '246810' },
    ]);
    expect(calls[0]!.key).not.toBe(calls[1]!.key);
    expect(calls[2]!.key).toBe(calls[1]!.key);
    expect(done).toHaveBeenCalledTimes(1);
    expect(toasts()).toContain('block.success');
  });

  it('converts a US item at the configured rate before the fee', () => {
    const amd: BlockItem = { ...RELIANCE, tag: 'AMD', type: 'US', price: 21.15 };
    const { result } = renderHook(() => useBlockBuy(amd, '1000000.00', () => {}));
    expect(result.current.converts).toBe(true);
    // $2,115.00 + $0.63 fee; ₹42,300.00 + ₹12.69 fee
    expect(result.current.totalLocalMinor).toBe(211_500 + 63);
    expect(result.current.chargeMinor).toBe(4_230_000 + 1269);
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

describe('fund orders screen', () => {
  const order = (id: number, days: number, status: string): FundOrder => ({
    id,
    amount: '25000.00',
    expected_return: 1.1,
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
