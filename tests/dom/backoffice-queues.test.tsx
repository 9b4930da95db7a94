import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Me, OPS_MESSAGES, type Queues as QueuesData, WORK_TYPES } from '../../src/shared/backoffice';

/**
 * The Queues screen (src/backoffice/screens/Queues): a tile per kind of work, each named (a kind
 * added on the server once showed a tile with a count and no name), and the list's money in its own
 * column beside the customer by name and phone; a claim is busy while it is sent and a refusal is said
 * in the server's words.
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
const NOW = Date.UTC(2026, 11, 7, 10);
const data: QueuesData = {
  now: NOW,
  types: WORK_TYPES.map((type) => ({ type, count: 0, oldestAt: null, targetMs: 3600_000 })),
  items: [
    {
      type: 'approval',
      id: '12',
      title: 'Payout awaiting a second approval',
      detail: 'Requested by Mira Shah',
      amount: '250000.00',
      customerId: 42,
      customerPhone: '9876543210',
      customerName: 'Asha Rao',
      since: NOW - 60_000,
      targetMs: 3600_000,
      claimedBy: null,
    },
  ],
};
vi.mock('../../src/backoffice/session', () => ({ useMe: () => me }));
const calls: Array<[string, unknown]> = [];
/** How a claim answers (a pending promise holds it). */
let claimAnswer: () => Promise<unknown> = async () => ({ ok: true, data: null });
vi.mock('../../src/backoffice/api', () => ({
  call: async (name: string, input: unknown) => {
    if (name === 'queues') return { ok: true, data };
    calls.push([name, input]);
    return claimAnswer();
  },
  downloadCsv: async () => null,
  serverNow: () => NOW,
  message: (e: string) => OPS_MESSAGES[e] ?? e,
}));

const { QueuesScreen: Queues } = await import('../../src/backoffice/screens/Queues/QueuesScreen');

describe('back office queues', () => {
  afterEach(cleanup);

  it('names every kind of work on its tile, and lists the amount apart, the customer by name and phone', async () => {
    render(
      <MemoryRouter>
        <Queues />
      </MemoryRouter>,
    );
    const row = await screen.findByRole('row', { name: /Payout awaiting a second approval/ });
    const tiles = within(screen.getByRole('region', { name: 'Queues by type' })).getAllByRole('link');
    expect(tiles).toHaveLength(WORK_TYPES.length);
    for (const tile of tiles) expect(tile.firstElementChild?.textContent?.trim()).not.toBe('');
    expect(screen.getByRole('link', { name: /^Account controls/ })).toBeTruthy();
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toContain('₹2,50,000.00');
    expect(within(row).getByRole('link', { name: 'Asha Rao' })).toBeTruthy();
    expect(row.textContent).toContain('9876543210');
  });

  it("a claim is busy while it is sent, and a refusal is said in the server's words", async () => {
    calls.length = 0;
    let answer: (r: unknown) => void = () => {};
    claimAnswer = () => new Promise((resolve) => (answer = resolve));
    render(
      <MemoryRouter>
        <Queues />
      </MemoryRouter>,
    );
    const row = await screen.findByRole('row', { name: /Payout awaiting a second approval/ });
    const claim = within(row).getByRole('button', { name: 'Claim' }) as HTMLButtonElement;
    fireEvent.click(claim);
    await waitFor(() => expect(claim.getAttribute('aria-busy')).toBe('true'));
    expect(claim.disabled).toBe(true);
    expect(calls).toEqual([['claim', { type: 'approval', id: '12', staffId: 7 }]]);
    answer({ ok: false, error: 'ops.errors.claimedByOther', status: 409 });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(OPS_MESSAGES['ops.errors.claimedByOther']);
    expect(claim.disabled).toBe(false);
  });
});
