import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Capability,
  type Me,
  OPS_MESSAGES,
  type PayoutRow,
  type Payouts,
} from '../../src/shared/backoffice';
import { fakeModalDialogs, member } from '../support/backoffice-dom';

/**
 * The Payouts screen (src/backoffice/screens/Payouts) in its maker-checker states: a payout
 * awaiting a second approval offers the member who asked no Approve they can press; another member
 * approves through a confirmation that restates the amount, the payee and the card; while the call
 * runs the button is busy and disabled; a refusal is said in words.
 */

const NOW = Date.UTC(2026, 11, 7, 10);
const ADMIN: Capability[] = ['work', 'pay', 'approve'];
let me: Me;

const row: PayoutRow = {
  id: 12,
  userId: 42,
  phone: '9876543210',
  customer: { name: 'Asha Rao', nameFrom: 'kyc', kycStatus: 2 },
  amount: '250000.00',
  status: 'pending',
  hold: 'wallet.hold.review',
  card: {
    id: 5,
    bank: 'HDFC Bank',
    card: '****4321',
    holder: 'ASHA RAO',
    ifsc: 'HDFC0001234',
    status: 1,
    addedAt: NOW - 30 * 86_400_000,
    changedAt: NOW - 30 * 86_400_000,
  },
  askedAt: NOW - 600_000,
  dayTotal: '250000.00',
  needsApproval: true,
  approval: {
    id: 3,
    withdrawalId: 12,
    amount: '250000.00',
    status: 'awaiting',
    maker: 'staff:7',
    makerName: 'Mira Shah',
    createdAt: NOW - 300_000,
    checkerName: null,
    decidedAt: null,
    intact: true,
  },
};
const list: Payouts = { threshold: '200000.00', rows: [row] };

const calls: Array<[string, unknown]> = [];
/** How payoutApprove answers this test (a pending promise holds the call). */
let approveAnswer: () => Promise<unknown>;
vi.mock('../../src/backoffice/session', () => ({ useMe: () => me }));
vi.mock('../../src/backoffice/api', () => ({
  call: async (name: string, input: unknown) => {
    if (name === 'payouts') return { ok: true, data: list };
    calls.push([name, input]);
    return name === 'payoutApprove' ? approveAnswer() : { ok: true, data: null };
  },
  downloadCsv: async () => null,
  serverNow: () => NOW,
  message: (e: string) => OPS_MESSAGES[e] ?? e,
}));

const { PayoutsScreen } = await import('../../src/backoffice/screens/Payouts/PayoutsScreen');

async function show() {
  render(
    <MemoryRouter>
      <PayoutsScreen />
    </MemoryRouter>,
  );
  return screen.findByTestId('payout-12');
}

describe('back office payouts', () => {
  beforeAll(() => {
    fakeModalDialogs();
  });
  beforeEach(() => {
    calls.length = 0;
    approveAnswer = async () => ({ ok: true, data: { paid: true } });
  });
  afterEach(cleanup);

  it('the member who asked cannot approve: their Approve is disabled and says another member approves', async () => {
    me = member(7, ADMIN);
    const tr = await show();
    expect(within(tr).getByText('Awaits 2nd approval')).toBeTruthy();
    expect(within(tr).getByText('Requested by Mira Shah')).toBeTruthy();
    const approve = within(tr).getByRole('button', { name: /Approve/ }) as HTMLButtonElement;
    expect(approve.disabled).toBe(true);
    expect(approve.title).toBe('You asked for this payout: another member approves it');
    // Pressed all the same, it opens nothing and sends nothing.
    fireEvent.click(approve);
    expect(screen.queryByRole('button', { name: /^Approve and pay/ })).toBeNull();
    expect(calls).toEqual([]);
  });

  it('a maker without the approve capability is offered no Approve at all', async () => {
    me = member(7, ['work', 'pay']);
    const tr = await show();
    expect(within(tr).queryByRole('button', { name: /Approve/ })).toBeNull();
    expect(within(tr).getByRole('button', { name: 'Reject…' })).toBeTruthy();
  });

  it('another member approves through a confirmation restating the amount, the payee and the card', async () => {
    me = member(9, ADMIN);
    const tr = await show();
    const approve = within(tr).getByRole('button', { name: 'Approve…' }) as HTMLButtonElement;
    expect(approve.disabled).toBe(false);
    fireEvent.click(approve);
    const dialog = screen.getByRole('dialog', { name: 'Approve and pay withdrawal #12' });
    expect(within(dialog).getByTestId('confirm-amount').textContent).toBe('₹2,50,000.00');
    expect(within(dialog).getByText('ASHA RAO')).toBeTruthy();
    expect(dialog.textContent).toMatch(/HDFC Bank •••• 4321 · IFSC HDFC0001234/);
    expect(dialog.textContent).toMatch(/Requested by\s*Mira Shah/);
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve and pay ₹2,50,000.00' }));
    await screen.findByText('Withdrawal 12 approved and paid.');
    expect(calls).toEqual([['payoutApprove', { id: 12 }]]);
  });

  it('while the approval is sent its button is busy and disabled', async () => {
    me = member(9, ADMIN);
    let answer: (r: unknown) => void = () => {};
    approveAnswer = () => new Promise((resolve) => (answer = resolve));
    const tr = await show();
    fireEvent.click(within(tr).getByRole('button', { name: 'Approve…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Approve and pay ₹2,50,000.00' }));
    const busy = within(tr).getByRole('button', { name: 'Approve…' }) as HTMLButtonElement;
    await waitFor(() => expect(busy.getAttribute('aria-busy')).toBe('true'));
    expect(busy.disabled).toBe(true);
    answer({ ok: true, data: { paid: true } });
    await screen.findByText('Withdrawal 12 approved and paid.');
    expect(busy.disabled).toBe(false);
  });

  it("a refusal is said in the server's words and nothing is reported paid", async () => {
    me = member(9, ADMIN);
    approveAnswer = async () => ({ ok: false, error: 'ops.errors.approvalVoid', status: 409 });
    const tr = await show();
    fireEvent.click(within(tr).getByRole('button', { name: 'Approve…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Approve and pay ₹2,50,000.00' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(OPS_MESSAGES['ops.errors.approvalVoid']);
    expect(screen.queryByText('Withdrawal 12 approved and paid.')).toBeNull();
  });
});
