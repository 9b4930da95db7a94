import { type FormEvent, useState } from 'react';
import type { AccountAction, CustomerView } from '../../../shared/backoffice';
import { call } from '../../api';
import { useAction } from '../../hooks';
import { useMe } from '../../session';

/** Which dialog is open: asking for a control, ending the sessions, or deciding the waiting request. */
export type Step = AccountAction | 'endSessions' | 'approve' | 'reject';

export const ACTION_NAME: Record<AccountAction, string> = {
  freeze: 'Freeze',
  unfreeze: 'Unfreeze',
  factorReset: 'Second-factor reset',
  passwordReset: 'Password reset',
};

/** "1 session ended", "3 sessions ended": what an ended-sessions notice says. */
const sessionsEnded = (n: number) => `${n} session${n === 1 ? '' : 's'} ended`;

/**
 * The account controls' state and decisions (server/backoffice/account-controls.ts): the waiting
 * request and whether it is this member's (the maker never approves it), the open dialog and its
 * reason, and one function per decision — ask (freeze, unfreeze, factor or password reset: two people's),
 * approve, reject or withdraw, end the sessions (one member's, at once) — through one `useAction`.
 */
export function useAccountControls(c: CustomerView, onDone: () => void) {
  const me = useMe();
  const action = useAction(onDone);
  const [step, setStep] = useState<Step | null>(null);
  const [reason, setReason] = useState('');
  const userId = c.customer.id;
  const request = c.standing.request;
  const asked = (request?.detail ?? {}) as { action?: AccountAction; reason?: string };
  const mine = request?.maker === `staff:${me.id}`;

  const approve = () =>
    action.run(
      'approve',
      () => call('accountApprove', { userId }),
      (d) => `${ACTION_NAME[d.action]} done${d.sessionsEnded ? `: ${sessionsEnded(d.sessionsEnded)}` : ''}.`,
    );
  const reject = (why: string) =>
    action.run('reject', () => call('accountReject', { userId, reason: why }), 'Request closed.');
  const endSessions = (why: string) =>
    action.run(
      'endSessions',
      () => call('sessionsEnd', { userId, reason: why }),
      (d) => `${sessionsEnded(d.sessionsEnded)}.`,
    );
  const ask = (control: AccountAction, why: string) =>
    action.run(
      control,
      () => call('accountRequest', { userId, action: control, reason: why }),
      `${ACTION_NAME[control]} asked: another member approves it.`,
    );

  async function submit(e: FormEvent) {
    e.preventDefault();
    const current = step;
    if (!current) return;
    const why = reason.trim();
    const ok =
      current === 'approve'
        ? await approve()
        : current === 'reject'
          ? await reject(why)
          : current === 'endSessions'
            ? await endSessions(why)
            : await ask(current, why);
    if (ok) setStep(null);
  }

  const needsReason = step !== 'approve';
  return {
    request,
    asked,
    mine,
    /** A member with the approve capability who did not ask is offered Approve. */
    mayApprove: me.caps.includes('approve') && !mine,
    hasFactor: c.standing.factors.totp || c.standing.factors.passkeys > 0,
    step,
    open(next: Step) {
      setReason('');
      action.setError(null);
      setStep(next);
    },
    close: () => setStep(null),
    reason,
    setReason,
    needsReason,
    ready: !needsReason || reason.trim() !== '',
    submit,
    busy: action.busy !== null,
    error: action.error,
    note: action.note,
  };
}
