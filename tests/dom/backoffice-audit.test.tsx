import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditRow } from '../../src/shared/backoffice';

/**
 * The audit log (src/backoffice/screens/Audit) says an entry as staff read it: a console command's
 * arguments as the command line typed, not JSON; a refusal's code in words; amber only for what
 * failed or was refused.
 */

const NOW = Date.UTC(2026, 11, 7, 10);
const entry = (seq: number, over: Partial<AuditRow>): AuditRow => ({
  seq,
  at: NOW - seq * 60_000,
  actor: 'staff:1',
  actorName: 'Asha Iyer',
  role: 'admin',
  action: 'staff:signIn',
  targetType: 'staff',
  targetId: '1',
  customerId: null,
  before: null,
  after: null,
  reason: null,
  hash: 'abcdef0123456789',
  ...over,
});
const rows: AuditRow[] = [
  entry(3, {
    actor: 'console',
    actorName: 'root',
    role: 'console',
    action: 'console:staff:add',
    targetType: null,
    targetId: null,
    after: { args: ['lena.fischer', '--role', 'approver', '--name', 'Lena Fischer-Hoffmann'] },
  }),
  entry(2, { action: 'staff:factorFailed', reason: 'errors.codeUsed', after: { status: 400 } }),
  entry(1, { action: 'payout:approve', after: { status: 'y' } }),
  entry(0, { action: 'staff:signIn', after: { stage: 'full' } }),
];
vi.mock('../../src/backoffice/api', () => ({
  call: async (name: string) => (name === 'audit' ? { ok: true, data: { rows } } : { ok: true, data: {} }),
  downloadCsv: async () => null,
  serverNow: () => NOW,
  message: (e: string) => e,
}));

const { AuditScreen } = await import('../../src/backoffice/screens/Audit/AuditScreen');

describe('back office audit log', () => {
  afterEach(cleanup);

  it('says a command, a refusal and an approval in words, with amber only for the failure', async () => {
    render(
      <MemoryRouter>
        <AuditScreen />
      </MemoryRouter>,
    );
    const command = (await screen.findByText('console:staff:add')).closest('tr')!;
    const change = within(command)
      .getByText(/^args:/)
      .closest('li')!;
    expect(change.textContent).toBe('args: → lena.fischer --role approver --name "Lena Fischer-Hoffmann"');
    expect(change.textContent).not.toContain('[');
    const failed = screen.getByText('staff:factorFailed');
    expect(failed.closest('tr')!.textContent).toContain('That code was used already: wait for the next one.');
    expect(failed.closest('tr')!.textContent).not.toContain('errors.codeUsed');
    // A routine payout reads as calmly as a sign-in; the failed factor stands out.
    const approved = screen.getByText('payout:approve');
    const signIn = screen.getByText('staff:signIn');
    expect(approved.className).toBe(signIn.className);
    expect(failed.className).not.toBe(signIn.className);
  });
});
