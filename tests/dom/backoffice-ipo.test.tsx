import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AllotmentPreview, IpoRow, Me } from '../../src/shared/backoffice';
import { member } from '../support/backoffice-dom';

/**
 * IPO allotment (src/backoffice/screens/Ipo): the member who proposed a table cannot run it and is
 * told another member runs it; a second member runs it, and the outcome is said.
 */

const NOW = Date.UTC(2026, 11, 7, 10);
let me: Me;
const proposal = {
  id: 4,
  ratio: '0.5',
  proposedBy: 'staff:7',
  proposedName: 'Mira Shah',
  proposedAt: NOW - 60_000,
  intact: true,
};
const ipo: IpoRow = {
  id: 2,
  symbol: 'ACME',
  company: 'Acme Ltd',
  status: 'closed',
  issueEnd: NOW - 3600_000,
  pendingApplications: 1,
  pendingShares: 200,
  frozen: '20000.00',
  proposal,
};
const preview: AllotmentPreview = {
  ipoId: 2,
  symbol: 'ACME',
  ratio: '1',
  lines: [
    {
      orderId: 9,
      userId: 42,
      phone: '9876543210',
      applied: 200,
      allotted: 200,
      frozen: '20000.00',
      charged: '20000.00',
      refund: '0.00',
    },
  ],
  totals: { applications: 1, applied: 200, allotted: 200, charged: '20000.00', refund: '0.00' },
  proposal,
};
const calls: Array<[string, unknown]> = [];
vi.mock('../../src/backoffice/session', () => ({ useMe: () => me }));
vi.mock('../../src/backoffice/api', () => ({
  call: async (name: string, input: unknown) => {
    if (name === 'ipos') return { ok: true, data: [ipo] };
    if (name === 'ipoPreview') return { ok: true, data: preview };
    calls.push([name, input]);
    return { ok: true, data: { allotted: 1, refunded: 0 } };
  },
  serverNow: () => NOW,
  message: (e: string) => e,
}));

const { IpoScreen } = await import('../../src/backoffice/screens/Ipo/IpoScreen');

async function open() {
  render(
    <MemoryRouter>
      <IpoScreen />
    </MemoryRouter>,
  );
  fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
  return (await screen.findByRole('button', { name: 'Run the proposed allotment' })) as HTMLButtonElement;
}

describe('back office IPO allotment', () => {
  beforeEach(() => {
    calls.length = 0;
  });
  afterEach(cleanup);

  it('the member who proposed the table cannot run it', async () => {
    me = member(7, ['work', 'pay', 'approve']);
    const runButton = await open();
    expect(runButton.disabled).toBe(true);
    expect(runButton.title).toBe('You proposed it: another member runs it');
    fireEvent.click(runButton);
    expect(calls).toEqual([]);
  });

  it('a second member runs it, and the outcome is said', async () => {
    me = member(9, ['work', 'pay', 'approve']);
    const runButton = await open();
    expect(runButton.disabled).toBe(false);
    fireEvent.click(runButton);
    await screen.findByText('Allotted: 1 applications, 0 refunded in full.');
    expect(calls).toEqual([['ipoRun', { id: 2, proposal: 4 }]]);
  });
});
