import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Capability,
  type DepositRow,
  type Deposits,
  type Me,
  OPS_MESSAGES,
} from '../../src/shared/backoffice';
import { fakeModalDialogs, member } from '../support/backoffice-dom';

/**
 * The Deposits screen (src/backoffice/screens/Deposits) in its maker-checker states: a deposit
 * awaiting a second approval offers the member who confirmed it no Approve they can press; another
 * member approves through a confirmation that restates the amount, the customer and the bank
 * reference; a rejection is not sent without a reason (the customer reads it); a refusal is said
 * in the server's words.
 */

const NOW = Date.UTC(2026, 11, 7, 10);
const ADMIN: Capability[] = ['work', 'pay', 'approve'];
let me: Me;

/** Above the threshold, confirmed by member 7: it waits for another member's approval. */
const waiting: DepositRow = {
  id: 12,
  userId: 42,
  phone: '9876543210',
  customer: { name: 'Asha Rao', nameFrom: 'kyc', kycStatus: 2 },
  amount: '250000.00',
  reference: 'UTR123456789012',
  method: 'bank',
  askedAt: NOW - 600_000,
  needsApproval: true,
  approval: {
    id: 3,
    kind: 'deposit',
    targetId: '12',
    amount: '250000.00',
    detail: null,
    status: 'awaiting',
    maker: 'staff:7',
    makerName: 'Mira Shah',
    createdAt: NOW - 300_000,
    checkerName: null,
    decidedAt: null,
    intact: true,
  },
  claimedBy: null,
};
/** Below the threshold and not yet confirmed. */
const fresh: DepositRow = {
  ...waiting,
  id: 13,
  userId: 43,
  phone: '9123456780',
  customer: { name: 'Ravi Kumar', nameFrom: 'kyc', kycStatus: 2 },
  amount: '5000.00',
  reference: null,
  needsApproval: false,
  approval: null,
};
const list: Deposits = { threshold: '200000.00', rows: [waiting, fresh] };

const calls: Array<[string, unknown]> = [];
/** How each decision answers this test (by the call's name). */
let answers: Record<string, () => Promise<unknown>>;
vi.mock('../../src/backoffice/session', () => ({ useMe: () => me }));
vi.mock('../../src/backoffice/api', () => ({
  call: async (name: string, input: unknown) => {
    if (name === 'deposits') return { ok: true, data: list };
    calls.push([name, input]);
    return answers[name]?.() ?? { ok: true, data: null };
  },
  downloadCsv: async () => null,
  serverNow: () => NOW,
  message: (e: string) => OPS_MESSAGES[e] ?? e,
}));

const { DepositsScreen } = await import('../../src/backoffice/screens/Deposits/DepositsScreen');

async function show() {
  render(
    <MemoryRouter>
      <DepositsScreen />
    </MemoryRouter>,
  );
  return { waits: await screen.findByTestId('deposit-12'), fresh: screen.getByTestId('deposit-13') };
}

describe('back office deposits', () => {
  beforeAll(() => {
    fakeModalDialogs();
  });
  beforeEach(() => {
    calls.length = 0;
    answers = {
      depositApprove: async () => ({ ok: true, data: { credited: true } }),
      depositConfirm: async () => ({ ok: true, data: { credited: true, approval: null } }),
    };
  });
  afterEach(cleanup);

  it('the member who confirmed cannot approve: their Approve is disabled and nothing is sent', async () => {
    me = member(7, ADMIN);
    const { waits } = await show();
    expect(within(waits).getByText('Awaits 2nd approval')).toBeTruthy();
    expect(within(waits).getByText('Confirmed by Mira Shah')).toBeTruthy();
    const approve = within(waits).getByRole('button', { name: /Approve/ }) as HTMLButtonElement;
    expect(approve.disabled).toBe(true);
    expect(approve.title).toBe('You confirmed this deposit: another member approves it');
    // Pressed all the same, it opens nothing and sends nothing.
    fireEvent.click(approve);
    expect(screen.queryByRole('button', { name: /^Approve and credit/ })).toBeNull();
    expect(calls).toEqual([]);
  });

  it('another member approves through a confirmation restating the amount, the customer and the reference', async () => {
    me = member(9, ADMIN);
    const { waits } = await show();
    const approve = within(waits).getByRole('button', { name: 'Approve…' }) as HTMLButtonElement;
    expect(approve.disabled).toBe(false);
    fireEvent.click(approve);
    const dialog = screen.getByRole('dialog', { name: 'Approve and credit deposit #12' });
    expect(within(dialog).getByTestId('confirm-amount').textContent).toBe('₹2,50,000.00');
    expect(within(dialog).getByText('Asha Rao')).toBeTruthy();
    expect(within(dialog).getByText('UTR123456789012')).toBeTruthy();
    expect(dialog.textContent).toMatch(/Confirmed by\s*Mira Shah/);
    expect(calls).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve and credit ₹2,50,000.00' }));
    await screen.findByText('Deposit 12 approved and credited.');
    expect(calls).toEqual([['depositApprove', { id: 12 }]]);
  });

  it('while the approval is sent its button is busy and disabled', async () => {
    me = member(9, ADMIN);
    let answer: (r: unknown) => void = () => {};
    answers.depositApprove = () => new Promise((resolve) => (answer = resolve));
    const { waits } = await show();
    fireEvent.click(within(waits).getByRole('button', { name: 'Approve…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Approve and credit ₹2,50,000.00' }));
    const busy = within(waits).getByRole('button', { name: 'Approve…' }) as HTMLButtonElement;
    await waitFor(() => expect(busy.getAttribute('aria-busy')).toBe('true'));
    expect(busy.disabled).toBe(true);
    answer({ ok: true, data: { credited: true } });
    await screen.findByText('Deposit 12 approved and credited.');
    expect(busy.disabled).toBe(false);
  });

  it('a rejection is not sent without a reason; with one it is, in its words', async () => {
    me = member(9, ADMIN);
    const { fresh } = await show();
    fireEvent.click(within(fresh).getByRole('button', { name: 'Reject…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reject deposit 13' });
    const reject = within(dialog).getByRole('button', { name: 'Reject' }) as HTMLButtonElement;
    expect(reject.disabled).toBe(true);
    const reason = within(dialog).getByLabelText('Reason (needed)');
    // Spaces are no reason; nor does Enter send the form past the disabled button.
    fireEvent.change(reason, { target: { value: '   ' } });
    expect(reject.disabled).toBe(true);
    fireEvent.submit(reason.closest('form')!);
    expect(calls).toEqual([]);
    fireEvent.change(reason, { target: { value: '  No such transfer on the statement ' } });
    expect(reject.disabled).toBe(false);
    fireEvent.click(reject);
    await screen.findByText('Deposit 13 rejected; the customer was told why.');
    expect(calls).toEqual([['depositReject', { id: 13, text: 'No such transfer on the statement' }]]);
  });

  it("a refusal is said in the server's words and nothing is reported credited", async () => {
    me = member(9, ADMIN);
    answers.depositApprove = async () => ({ ok: false, error: 'ops.errors.notWaiting', status: 409 });
    const { waits } = await show();
    fireEvent.click(within(waits).getByRole('button', { name: 'Approve…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Approve and credit ₹2,50,000.00' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(OPS_MESSAGES['ops.errors.notWaiting']);
    expect(screen.queryByText('Deposit 12 approved and credited.')).toBeNull();
  });

  it('one member confirms a deposit below the threshold and it is credited at once', async () => {
    me = member(7, ['work', 'pay']);
    const { fresh } = await show();
    fireEvent.click(within(fresh).getByRole('button', { name: 'Confirm…' }));
    const dialog = screen.getByRole('dialog', { name: 'Confirm deposit #13' });
    expect(within(dialog).getByText('None given')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Credit ₹5,000.00' }));
    await screen.findByText('Deposit 13 credited.');
    expect(calls).toEqual([['depositConfirm', { id: 13 }]]);
  });
});
