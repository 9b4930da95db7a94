import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoanData } from '#shared/contract/wallet';
import { parseConfig } from '../../src/api/useConfig';
import { changeLanguage, initI18n } from '../../src/i18n/index';
import IpoOrdersScreen from '../../src/screens/IpoOrders/IpoOrdersScreen';
import LoanScreen from '../../src/screens/Loan/LoanScreen';
import RechargeScreen from '../../src/screens/Recharge/RechargeScreen';
import { IdentityNeeded } from '../../src/shell/IdentityNeeded';
import { useUi } from '../../src/store/ui';
import { Toasts } from '../../src/ui/Toasts';
import { fake } from '../support/fake-worker';
import { ORDER } from '../support/trading-screen';

/** The products as the user meets them: add funds' safety line, identity before money. */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/** What each watched call answers (by contract name). */
let watched: Record<string, unknown> = {};
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return { useWatch: (name: string) => watchResult(watched[name]) };
});

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  watched = {};
  fake.reset();
  useUi.setState({ identityNeeded: false });
});
afterEach(async () => {
  cleanup();
  await changeLanguage('en');
});

function addFunds() {
  return render(
    <MemoryRouter initialEntries={['/recharge']}>
      <Routes>
        <Route path="/recharge" element={<RechargeScreen />} />
        <Route path="/settings/real-name" element={<h1>Real-name page</h1>} />
      </Routes>
      <IdentityNeeded />
      <Toasts />
    </MemoryRouter>,
  );
}

describe('add funds', () => {
  it('always carries the line that we never ask for a payment to another account, in every language', async () => {
    const lines: Record<string, string> = {
      en: 'We never ask you to pay any other account, not even in chat.',
      de: 'Wir bitten Sie nie, auf ein anderes Konto zu zahlen – auch nicht im Chat.',
      es: 'Nunca te pediremos que pagues a ninguna otra cuenta, ni siquiera por chat.',
      zh: '我们绝不会要求您向任何其他账户付款，即使在聊天中也不会。',
    };
    for (const [lang, line] of Object.entries(lines)) {
      await act(() => changeLanguage(lang as 'en'));
      addFunds();
      expect(screen.getByTestId('never-pay').textContent).toBe(line);
      cleanup();
    }
  });

  it('explains a refusal for want of verified identity and leads to real-name verification', async () => {
    addFunds();
    fireEvent.click(screen.getByRole('radio', { name: /Bank transfer/ }));
    fireEvent.change(screen.getByLabelText('Recharge amount'), { target: { value: '6000' } });
    fake.answers = [{ ok: false, error: 'errors.kycRequired', status: 403 }];
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Submit recharge' }));
    });
    expect(fake.calls.map((c) => c.name)).toEqual(['recharge']);
    const dialog = await screen.findByRole('dialog', { name: 'Verify your identity first' });
    expect(dialog.textContent).toContain(
      'Adding funds, loans and buy orders open once your real-name verification is approved',
    );
    expect(dialog.textContent).toContain('Selling, cancelling and withdrawing never wait for it');
    // Said once, by the dialog: no toast repeats it dimmed under the dialog's backdrop.
    expect(document.body.textContent).not.toContain('Verify your identity first: adding funds');
    fireEvent.click(screen.getByRole('button', { name: 'Go to real-name verification' }));
    expect(await screen.findByRole('heading', { name: 'Real-name page' })).toBeTruthy();
    expect(useUi.getState().identityNeeded).toBe(false);
  });

  it('does not bother a user whose refusal had another reason', async () => {
    addFunds();
    fireEvent.click(screen.getByRole('radio', { name: /Bank transfer/ }));
    fireEvent.change(screen.getByLabelText('Recharge amount'), { target: { value: '6000' } });
    fake.answers = [{ ok: false, error: 'errors.rechargeMax', status: 400 }];
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Submit recharge' }));
    });
    expect(fake.calls).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: 'Verify your identity first' })).toBeNull();
    expect(useUi.getState().identityNeeded).toBe(false);
  });
});

describe('loans', () => {
  const loan: LoanData = {
    amountDue: '2086.71',
    accrued: '86.71',
    creditScore: 100,
    remainingAmount: '98000.00',
    creditLimit: '100000.00',
    creditPerPoint: '1000.00',
    terms: { interestRate: 14, tenureDays: 90, lateChargeRate: 0.05 },
  };

  it('shows what is owed on a card labelled as borrowed, with the rate, tenure and late charges before applying', async () => {
    watched = { loanData: loan };
    render(
      <MemoryRouter>
        <LoanScreen />
      </MemoryRouter>,
    );
    const card = screen.getByTestId('loan-card');
    // Outlined and neutral: not the balance's bright hero card.
    expect(card.className).toMatch(/loanCard/);
    expect(card.className).not.toMatch(/hero/);
    expect(card.textContent).toContain('Borrowed money · to be repaid');
    expect(screen.getByTestId('loan-due').textContent).toBe('₹2,086.71');
    expect(screen.getByTestId('loan-accrued').textContent).toBe('₹86.71');
    expect(card.textContent).toContain('Interest rate14.00% a year');
    expect(document.body.textContent).toContain(
      'Interest of 14.00% a year accrues daily on the principal from the day it is paid out; repayment is due after 90 days, then a late charge of 0.05% a day is added.',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Apply for a loan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply for a loan' });
    fireEvent.change(screen.getByLabelText('Loan amount'), { target: { value: '2000' } });
    // 2,000.00 at 14 % a year for 90 days: 69.0411 → 69.04, the server's rule (src/shared/loans.ts).
    expect(screen.getByTestId('loan-total').textContent).toContain('₹2,069.04');
    expect(dialog.textContent).toContain('90 days');
    expect(dialog.textContent).toContain('0.05% of the principal per day overdue');
  });
});

describe('IPO applications', () => {
  it('show the amount blocked until allotment, and released when nothing was allotted', () => {
    const app = (id: number, status: number) => ({
      ...ORDER,
      id,
      no: `I${id}`,
      mold: 'ipo' as const,
      state: 'buy' as const,
      status,
      count: 300,
      price: 120.5,
      price_all: '36150.00',
    });
    watched = { ipoOrders: { rows: [app(3, 1), app(2, 3), app(1, 2)] } };
    render(
      <MemoryRouter>
        <IpoOrdersScreen />
      </MemoryRouter>,
    );
    // Each row opens its detail, which says what the application holds or gave back.
    const noteOf = (i: number) => {
      fireEvent.click(within(screen.getAllByRole('listitem')[i]!).getByRole('button'));
      const detail = screen.getByRole('dialog');
      const note = within(detail).queryByTestId('order-note')?.textContent ?? null;
      fireEvent.click(within(detail).getByRole('button', { name: 'Done' }));
      return note;
    };
    expect(noteOf(0)).toBe('₹36,150.00 blocked until allotment');
    expect(noteOf(1)).toBe('₹36,150.00 released to your balance: not allotted');
    // Allotted: the money paid for the shares, nothing blocked any more.
    expect(noteOf(2)).toBeNull();
    // SPEC: the quantity only at status 0 or 2.
    const filled = screen.getAllByTestId('order-filled').map((n) => n.textContent);
    expect(filled).toEqual(['—', '—', '300/300']);
  });
});
