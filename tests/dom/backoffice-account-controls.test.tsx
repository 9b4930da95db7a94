import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalView, CustomerView, Me } from '../../src/shared/backoffice';
import { fakeModalDialogs } from '../support/backoffice-dom';

/**
 * The customer page's account controls (src/backoffice/screens/Customer/AccountControls.tsx, its decisions in useAccountControls.ts) in their
 * maker-checker states: the maker of a waiting control is offered no Approve and is told another
 * member approves; a checker is offered Approve, whose dialog restates what it does and why it was
 * asked; asking (a freeze, a password reset) needs a reason and says that nothing changes until a second member approves; ending
 * the sessions is one member's and acts at once, a freeze waiting or not.
 */

const me: Me = {
  id: 7,
  login: 'dev',
  name: 'Dev Patel',
  role: 'admin',
  stage: 'full',
  caps: ['work', 'approve'],
  freshUntil: 0,
  expiresAt: 0,
  idleMs: 0,
  factors: { totp: true, passkeys: 0 },
};
const calls: Array<[string, unknown]> = [];
vi.mock('../../src/backoffice/session', () => ({ useMe: () => me }));
vi.mock('../../src/backoffice/api', () => ({
  call: async (name: string, input: unknown) => {
    calls.push([name, input]);
    if (name === 'accountApprove') return { ok: true, data: { action: 'freeze', sessionsEnded: 2 } };
    if (name === 'sessionsEnd') return { ok: true, data: { sessionsEnded: 2 } };
    return { ok: true, data: null };
  },
  message: (e: string) => e,
}));

const { AccountControls } = await import('../../src/backoffice/screens/Customer/AccountControls');

function request(maker: string): ApprovalView {
  return {
    id: 1,
    kind: 'account',
    targetId: '42',
    amount: null,
    detail: { action: 'freeze', reason: 'Card reported stolen' },
    status: 'awaiting',
    maker,
    makerName: maker === 'staff:7' ? 'Dev Patel' : 'Mira Shah',
    createdAt: Date.UTC(2026, 11, 7, 10),
    checkerName: null,
    decidedAt: null,
    intact: true,
  };
}

function view(req: ApprovalView | null): CustomerView {
  return {
    customer: { id: 42, phone: '9876543210', name: 'Asha Rao' },
    standing: { frozenAt: null, sessions: 2, factors: { totp: true, passkeys: 1 }, request: req },
  } as unknown as CustomerView;
}

describe('back office account controls', () => {
  beforeAll(() => {
    fakeModalDialogs();
  });
  beforeEach(() => {
    calls.length = 0;
  });
  afterEach(cleanup);

  it('the maker of a waiting freeze gets no Approve, only Withdraw, and is told another member approves', () => {
    render(<AccountControls c={view(request('staff:7'))} onDone={() => {}} />);
    expect(screen.getByTestId('account-request').textContent).toMatch(/Freeze awaits 2nd approval/);
    expect(screen.getByTestId('account-request').textContent).toMatch(/Card reported stolen/);
    expect(screen.queryByRole('button', { name: /^Approve/ })).toBeNull();
    expect(screen.getByText('Another member approves your request.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Withdraw request' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Freeze…' })).toBeNull();
  });

  it('a checker approves: the dialog restates what happens and the reason it was asked for', async () => {
    render(<AccountControls c={view(request('staff:3'))} onDone={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Approve freeze' }));
    const effect = screen.getByTestId('control-effect').textContent ?? '';
    expect(effect).toMatch(/^Approving does it now: Asha Rao's 2 open sessions end\./);
    expect(effect).toMatch(/Withdrawals in progress are not paid until the account is unfrozen/);
    expect(screen.getByText(/because: “Card reported stolen”/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Approve: freeze now' }));
    await waitFor(() => expect(calls).toEqual([['accountApprove', { userId: 42 }]]));
  });

  it('asking for a freeze needs a reason and says nothing changes until a second member approves', async () => {
    render(<AccountControls c={view(null)} onDone={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Freeze…' }));
    expect(screen.getByTestId('control-effect').textContent).toMatch(
      /^Nothing changes until another member approves\. Then: Asha Rao's 2 open sessions end/,
    );
    const ask = screen.getByRole('button', { name: 'Ask for the second approval' }) as HTMLButtonElement;
    expect(ask.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Reason/), { target: { value: 'Card reported stolen' } });
    expect(ask.disabled).toBe(false);
    fireEvent.click(ask);
    await waitFor(() =>
      expect(calls).toEqual([
        ['accountRequest', { userId: 42, action: 'freeze', reason: 'Card reported stolen' }],
      ]),
    );
  });

  it('a factor reset names the factors that go and the 24 h withdrawal hold', () => {
    render(<AccountControls c={view(null)} onDone={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reset second factor…' }));
    expect(screen.getByTestId('control-effect').textContent).toMatch(
      /second factor \(authenticator app and 1 passkey\) and recovery codes are removed.*Withdrawals are held for 24 hours/,
    );
  });

  it('a password reset asks with a reason: the dialog says the password stops working, Forgot password sets a new one, and withdrawals wait 24 h', async () => {
    render(<AccountControls c={view(null)} onDone={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reset password…' }));
    expect(screen.getByTestId('control-effect').textContent).toMatch(
      /^Nothing changes until another member approves\. Then: Asha Rao's login password stops working and every session \(2 open\) ends: they set a new one with Forgot password.*Withdrawals are held for 24 hours/,
    );
    const ask = screen.getByRole('button', { name: 'Ask for the second approval' }) as HTMLButtonElement;
    expect(ask.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Reason/), { target: { value: 'Password phished' } });
    fireEvent.click(ask);
    await waitFor(() =>
      expect(calls).toEqual([
        ['accountRequest', { userId: 42, action: 'passwordReset', reason: 'Password phished' }],
      ]),
    );
  });

  it('ending the sessions acts at once, one member alone, while a freeze waits', async () => {
    render(<AccountControls c={view(request('staff:7'))} onDone={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'End sessions…' }));
    expect(screen.getByTestId('control-effect').textContent).toMatch(
      /^Now: Asha Rao's 2 open sessions end and they sign in again\./,
    );
    fireEvent.change(screen.getByLabelText(/^Reason/), { target: { value: 'Phone lost' } });
    fireEvent.click(screen.getByRole('button', { name: 'End sessions now' }));
    await screen.findByText('2 sessions ended.');
    expect(calls).toEqual([['sessionsEnd', { userId: 42, reason: 'Phone lost' }]]);
  });
});
