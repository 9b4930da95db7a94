import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillRow, LoanData } from '#shared/contract/wallet';
import { parseConfig } from '../../src/api/useConfig';
import { useInfinite } from '../../src/api/useInfinite';
import { initI18n } from '../../src/i18n/index';
import AccountChangesScreen from '../../src/screens/AccountChanges/AccountChangesScreen';
import { LoanTerms } from '../../src/screens/Loan/LoanTerms';
import { useRecharge } from '../../src/screens/Recharge/useRecharge';
import { LoadMore } from '../../src/ui';
import { fake } from '../support/fake-worker';

/** The wallet's own logic: infinite paging, the recharge form's messages and call, the bill list. */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/** What the watched first page answers, per request (its JSON). */
let firstPage: (input: Record<string, unknown>) => unknown = () => undefined;
/** Bumped to make the watched call answer again (a new object) for the same input. */
let answer = 0;
vi.mock('../../src/api/hooks', async () => {
  const { useMemo } = await import('react');
  const { watchResult } = await import('../support/fake-worker');
  return {
    useWatch: (_name: string, input: Record<string, unknown> | null) => {
      const key = JSON.stringify(input);
      // One answer object per input, as the worker gives (`answer` makes it answer again).
      const data = useMemo(() => (input ? firstPage(input) : undefined), [key, answer]);
      return watchResult(data);
    },
  };
});

const bill = (id: number, over: Partial<BillRow> = {}): BillRow => ({
  id,
  type: 'income',
  amount: '5000.00',
  balance: '5000.00',
  reason: 'recharge',
  symbol: null,
  created_at: Date.UTC(2026, 10, 24, 9, 30),
  ...over,
});
const page = (ids: number[], count: number) => ({ rows: ids.map((id) => bill(id)), count });
const router = ({ children }: { children: ReactNode }) => <MemoryRouter>{children}</MemoryRouter>;

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  fake.reset();
});
afterEach(cleanup);

describe('useInfinite', () => {
  it('appends the next page, drops rows it already shows, and stops at the count', async () => {
    firstPage = () => page([12, 11, 10, 9, 8, 7, 6, 5, 4, 3], 12);
    const { result } = renderHook(() => useInfinite('bill', { type: 'all' }));
    expect(result.current.rows).toHaveLength(10);
    expect(result.current.hasMore).toBe(true);
    // A new bill arrived meanwhile: page 2 starts with the last row of page 1 again.
    fake.answers = [{ ok: true, data: page([3, 2, 1], 13) }];
    await act(async () => result.current.loadMore());
    expect(fake.calls).toEqual([
      { name: 'bill', input: { type: 'all', page: 2, limit: 10 }, key: undefined },
    ]);
    expect(result.current.rows?.map((r) => r.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(result.current.hasMore).toBe(false);
  });

  it('keeps a failed page retryable and forgets appended pages when the list changes', async () => {
    firstPage = (input) =>
      input.type === 'all' ? page([20, 19, 18, 17, 16, 15, 14, 13, 12, 11], 11) : page([], 0);
    const { result, rerender } = renderHook(({ type }) => useInfinite('bill', { type }), {
      initialProps: { type: 'all' as 'all' | 'expense' },
    });
    fake.answers = [{ ok: false, error: 'errors.network', status: 0 }];
    await act(async () => result.current.loadMore());
    expect(result.current.moreError).toBe('errors.network');
    expect(result.current.hasMore).toBe(true);
    fake.answers = [{ ok: true, data: page([10], 11) }];
    await act(async () => result.current.loadMore());
    expect(result.current.rows).toHaveLength(11);
    rerender({ type: 'expense' });
    expect(result.current.rows).toEqual([]);
    expect(result.current.hasMore).toBe(false);
  });

  it('keeps appended pages when the same first page arrives again, drops them when it changed', async () => {
    let first = page([20, 19, 18, 17, 16, 15, 14, 13, 12, 11], 11);
    firstPage = () => first;
    const { result, rerender } = renderHook(() => useInfinite('bill', { type: 'all' }));
    fake.answers = [{ ok: true, data: page([10], 11) }];
    await act(async () => result.current.loadMore());
    expect(result.current.rows).toHaveLength(11);
    // The device's copy of page 1, then the network's: a new object with the same rows.
    first = page([20, 19, 18, 17, 16, 15, 14, 13, 12, 11], 11);
    answer++;
    rerender();
    expect(result.current.rows).toHaveLength(11);
    expect(result.current.hasMore).toBe(false);
    // A bill arrived: page 1 changed, so what followed it is fetched again.
    first = page([21, 20, 19, 18, 17, 16, 15, 14, 13, 12], 12);
    answer++;
    rerender();
    expect(result.current.rows?.map((r) => r.id)).toEqual([21, 20, 19, 18, 17, 16, 15, 14, 13, 12]);
    expect(result.current.hasMore).toBe(true);
  });
});

describe('LoadMore', () => {
  it('shows a failed page’s error and waits for the user instead of loading again by itself', () => {
    let observed = 0;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {
          observed++;
        }
        disconnect() {}
      },
    );
    const onMore = vi.fn();
    render(<LoadMore hasMore loading={false} error="Load failed, retry" onMore={onMore} />);
    expect(screen.getByRole('alert').textContent).toBe('Load failed, retry');
    expect(observed).toBe(0);
    act(() => screen.getByRole('button', { name: 'Retry' }).click());
    expect(onMore).toHaveBeenCalledTimes(1);
    vi.unstubAllGlobals();
  });
});

describe('recharge form', () => {
  it('explains a submit in SPEC’s words, then sends whole units by bank with an idempotency key', async () => {
    const { result } = renderHook(() => useRecharge(), { wrapper: router });
    await act(() => result.current.submit());
    expect(result.current.amountError).toBe('wallet.recharge.enterAmount');
    act(() => result.current.setAmount('4,9a99'));
    expect(result.current.amount).toBe('4999');
    expect(result.current.amountError).toBe('errors.rechargeMin');
    expect(result.current.ready).toBe(false);
    act(() => result.current.setAmount('7500'));
    // Not ready without a method: the tap says so (the button only looks disabled).
    expect(result.current.ready).toBe(false);
    await act(() => result.current.submit());
    expect(result.current.methodError).toBe('wallet.recharge.selectMethod');
    expect(fake.calls).toHaveLength(0);
    act(() => result.current.setMethod('bank'));
    expect(result.current.ready).toBe(true);
    fake.answers = [
      {
        ok: true,
        data: {
          id: 4,
          type: 'recharge',
          count: '7500.00',
          method: 'bank',
          status: 1,
          actual: '0.00',
          created_at: 1,
          updated_at: 1,
        },
      },
    ];
    await act(() => result.current.submit());
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]?.input).toEqual({ count: 7500, method: 'bank' });
    expect(fake.calls[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.current.done?.count).toBe('7500.00');
  });

  it('sends the bank reference when one is given, spaces dropped and in capitals; a malformed one stops the submit', async () => {
    const { result } = renderHook(() => useRecharge(), { wrapper: router });
    act(() => {
      result.current.setMethod('bank');
      result.current.setAmount('6000');
      result.current.setReference('hdfc 1234');
    });
    expect(result.current.referenceError).toBe('wallet.recharge.referenceInvalid');
    expect(result.current.ready).toBe(false);
    await act(() => result.current.submit());
    expect(fake.calls).toHaveLength(0);
    act(() => result.current.setReference('hdfc 0123 4567 89'));
    expect(result.current.referenceError).toBeNull();
    fake.answers = [
      {
        ok: true,
        data: {
          id: 5,
          type: 'recharge',
          count: '6000.00',
          method: 'bank',
          status: 1,
          actual: '0.00',
          created_at: 1,
          updated_at: 1,
        },
      },
    ];
    await act(() => result.current.submit());
    expect(fake.calls[0]?.input).toEqual({ count: 6000, method: 'bank', reference: 'HDFC0123456789' });
    expect(result.current.reference).toBe('');
  });
});

describe('account changes', () => {
  it('shows every row with its translated reason, signed amount and balance after', () => {
    firstPage = () => ({
      rows: [
        bill(5, {
          type: 'expense',
          amount: '3.62',
          balance: '2496.38',
          reason: 'transactionExpenses',
          symbol: 'RELIANCE.NS',
        }),
        bill(4, {
          type: 'expense',
          amount: '2500.00',
          balance: '2500.00',
          reason: 'buyStock',
          symbol: 'RELIANCE.NS',
        }),
        bill(3, { type: 'expense', amount: '700.00', balance: '4300.00', reason: 'withdraw' }),
        bill(2, { type: 'income', amount: '1500.00', balance: '5000.00', reason: 'borrow' }),
        bill(1, {
          type: 'income',
          amount: '12.00',
          balance: '3500.00',
          reason: 'somethingNew' as BillRow['reason'],
        }),
      ],
      count: 5,
    });
    render(<AccountChangesScreen />, { wrapper: router });
    const all = screen.getAllByRole('listitem').map((li) => li.textContent);
    // A trade's postings name its instrument; the others stand alone.
    expect(all[0]).toContain('Transaction fee · RELIANCE');
    expect(all[1]).toContain('Stock purchase · RELIANCE');
    const rows = all.slice(2);
    expect(rows[0]).not.toContain('·');
    expect(rows[0]).toContain('Withdrawal');
    expect(rows[0]).toContain('-₹700.00');
    expect(rows[0]).toContain('Balance ₹4,300.00');
    expect(rows[1]).toContain('Loan disbursed');
    expect(rows[1]).toContain('+₹1,500.00');
    expect(rows[2]).toContain('Other');
    expect(screen.getByText('No more', { exact: true })).toBeTruthy();
  });
});

describe('loan terms', () => {
  it('explains the credit score on its scale: from 0, no upper end, every account starting at 100', () => {
    const loan: LoanData = {
      amountDue: '0.00',
      accrued: '0.00',
      creditScore: 80,
      remainingAmount: '80000.00',
      creditLimit: '80000.00',
      creditPerPoint: '1000.00',
      terms: { interestRate: 14, tenureDays: 90, lateChargeRate: 0.05 },
    };
    render(<LoanTerms loan={loan} currency={{ unit: 'INR', symbol: '₹' }} />);
    const text = screen.getByRole('region', { name: 'Before you apply' }).textContent;
    expect(text).toContain('Your credit score is 80.');
    expect(text).toContain('The scale starts at 0 and has no upper end: every account starts at 100');
    expect(text).toContain('your credit limit is ₹80,000.00');
  });
});
