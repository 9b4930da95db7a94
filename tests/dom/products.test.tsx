import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../src/api/useConfig';
import { changeLanguage, initI18n } from '../../src/i18n/index';
import RechargeScreen from '../../src/screens/Recharge/RechargeScreen';
import { IdentityNeeded } from '../../src/shell/IdentityNeeded';
import { useUi } from '../../src/store/ui';
import { Toasts } from '../../src/ui/Toasts';
import { fake } from '../support/fake-worker';

/** Issue 30's products as the user meets them: add funds' safety line, identity before money. */

const config = parseConfig([{ tag: 'currency_unit', value: 'INR' }]);
vi.mock('../../src/api/useConfig', async (original) => ({
  ...(await original<typeof import('../../src/api/useConfig')>()),
  useConfig: () => config,
}));
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
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
      es: 'Nunca le pediremos que pague a ninguna otra cuenta, ni siquiera por chat.',
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
    // The toast says it too, in the server's words.
    expect(document.body.textContent).toContain(
      'Verify your identity first: adding funds, loans and buy orders need',
    );
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
