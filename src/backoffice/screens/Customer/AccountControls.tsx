import type { AccountAction, CustomerView } from '../../../shared/backoffice';
import { exactly, makerOf } from '../../format';
import { Badge, Button, Card, Dialog, Field, Outcome, css as s } from '../../ui';
import { ACTION_NAME, useAccountControls } from './useAccountControls';

/**
 * The customer page's controls over the account (server/account/controls.ts): its
 * standing (frozen or not, live sessions, second factors), the control waiting for a second member,
 * and the actions — freeze or unfreeze, reset the second factor or the password (two people's: this asks, another
 * member approves on this page, reached from the queue), end the sessions (one member's, now). Each
 * opens a dialog that restates what will happen to whom and takes the reason for the audit log. The
 * decisions are useAccountControls'.
 */

function factorsText(f: { totp: boolean; passkeys: number }): string {
  const parts = [
    f.totp ? 'authenticator app' : null,
    f.passkeys ? `${f.passkeys} passkey${f.passkeys > 1 ? 's' : ''}` : null,
  ];
  return parts.filter(Boolean).join(' and ') || 'Not set up';
}

/** What a control does, said once for the asking and the approving dialogs. */
function effectOf(action: AccountAction, c: CustomerView, who: string): string {
  const { standing } = c;
  switch (action) {
    case 'freeze':
      return `${who}'s ${standing.sessions} open session${standing.sessions === 1 ? '' : 's'} end. Buying, selling, withdrawing, adding funds, loans and card changes are refused with a message in their language; they can still sign in and see their account. Withdrawals in progress are not paid until the account is unfrozen. They are told in their inbox.`;
    case 'unfreeze':
      return `${who} can buy, sell and move money again. They are told in their inbox.`;
    case 'factorReset':
      return `${who}'s second factor (${factorsText(standing.factors)}) and recovery codes are removed and every session ends: they sign in with their password and set up a new one. Withdrawals are held for 24 hours for a check. They are told in their inbox.`;
    case 'passwordReset':
      return `${who}'s login password stops working and every session (${standing.sessions} open) ends: they set a new one with Forgot password (nobody in staff sees or sets it). Withdrawals are held for 24 hours for a check. They are told in their inbox.`;
  }
}

export function AccountControls({ c, onDone }: { c: CustomerView; onDone: () => void }) {
  const a = useAccountControls(c, onDone);
  const { standing } = c;
  const who = c.customer.name ?? c.customer.phone;
  const { request, asked, mine, step } = a;

  const title =
    step === 'approve'
      ? `Approve: ${asked.action ? ACTION_NAME[asked.action].toLowerCase() : 'control'} of ${who}`
      : step === 'reject'
        ? mine
          ? 'Withdraw your request'
          : `Reject the ${asked.action ? ACTION_NAME[asked.action].toLowerCase() : 'control'}`
        : step === 'endSessions'
          ? `End ${who}'s sessions`
          : step
            ? `Ask for: ${ACTION_NAME[step].toLowerCase()} of ${who}`
            : '';
  const restated =
    step === 'approve'
      ? asked.action
        ? `Approving does it now: ${effectOf(asked.action, c, who)}`
        : ''
      : step === 'reject'
        ? 'Nothing changes on the account; the reason goes to the audit log.'
        : step === 'endSessions'
          ? `Now: ${who}'s ${standing.sessions} open session${standing.sessions === 1 ? '' : 's'} end and they sign in again. They are told in their inbox. Nothing else changes.`
          : step
            ? `Nothing changes until another member approves. Then: ${effectOf(step, c, who)}`
            : '';

  return (
    <Card title="Account">
      <dl className={s.dl}>
        <dt>Status</dt>
        <dd data-testid="account-status">
          {standing.frozenAt !== null ? (
            <Badge tone="danger">Frozen since {exactly(standing.frozenAt)}</Badge>
          ) : (
            <Badge tone="ok">Active</Badge>
          )}
        </dd>
        <dt>Open sessions</dt>
        <dd>{standing.sessions}</dd>
        <dt>Second factor</dt>
        <dd>{factorsText(standing.factors)}</dd>
        {request && (
          <>
            <dt>Waiting</dt>
            <dd data-testid="account-request">
              <Badge tone={request.intact ? 'warn' : 'danger'}>
                {asked.action ? ACTION_NAME[asked.action] : 'Control'}
                {request.intact ? ' awaits 2nd approval' : ': account changed since asked, void'}
              </Badge>
              <div className={`${s.small} ${s.muted}`}>
                Asked by {makerOf(request)}, {exactly(request.createdAt)}: “{asked.reason}”
              </div>
            </dd>
          </>
        )}
      </dl>
      <div className={s.dialogActions}>
        {request ? (
          <>
            {a.mayApprove && (
              <Button small tone="approve" onClick={() => a.open('approve')}>
                Approve {asked.action ? ACTION_NAME[asked.action].toLowerCase() : ''}
              </Button>
            )}
            {mine && <span className={`${s.small} ${s.muted}`}>Another member approves your request.</span>}
            <Button small tone="danger" onClick={() => a.open('reject')}>
              {mine ? 'Withdraw request' : 'Reject'}
            </Button>
          </>
        ) : (
          <>
            {standing.frozenAt === null ? (
              <Button small tone="danger" onClick={() => a.open('freeze')}>
                Freeze…
              </Button>
            ) : (
              <Button small onClick={() => a.open('unfreeze')}>
                Unfreeze…
              </Button>
            )}
            <Button small onClick={() => a.open('factorReset')} disabled={!a.hasFactor}>
              Reset second factor…
            </Button>
            <Button small onClick={() => a.open('passwordReset')}>
              Reset password…
            </Button>
          </>
        )}
        <Button small onClick={() => a.open('endSessions')} disabled={standing.sessions === 0}>
          End sessions…
        </Button>
      </div>
      <Outcome error={step ? null : a.error} note={a.note} />
      <Dialog open={step !== null} title={title} onClose={a.close}>
        <form className={s.stack} onSubmit={a.submit}>
          <p data-testid="control-effect">{restated}</p>
          {step === 'approve' && request && (
            <p className={s.muted}>
              Asked by {makerOf(request)}, {exactly(request.createdAt)}, because: “{asked.reason}”
            </p>
          )}
          {a.needsReason && (
            <Field
              id="account-control-reason"
              label="Reason (needed; kept in the audit log, not shown to the customer)"
            >
              <textarea
                id="account-control-reason"
                className={s.textarea}
                value={a.reason}
                maxLength={500}
                required
                onChange={(e) => a.setReason(e.target.value)}
              />
            </Field>
          )}
          <Outcome error={a.error} note={null} />
          <div className={s.dialogActions}>
            <Button tone="ghost" onClick={a.close}>
              Cancel
            </Button>
            <Button
              type="submit"
              tone={
                step === 'approve' ? 'approve' : step === 'reject' || step === 'freeze' ? 'danger' : 'primary'
              }
              busy={a.busy}
              disabled={!a.ready}
            >
              {step === 'approve'
                ? `Approve: ${asked.action ? ACTION_NAME[asked.action].toLowerCase() : ''} now`
                : step === 'reject'
                  ? mine
                    ? 'Withdraw'
                    : 'Reject'
                  : step === 'endSessions'
                    ? 'End sessions now'
                    : 'Ask for the second approval'}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}
