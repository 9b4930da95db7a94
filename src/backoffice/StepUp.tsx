import { type FormEvent, useEffect, useRef, useState } from 'react';
import { call, handleStepUp } from './api';
import { codeOf, passkeyProof } from './factor';
import { useSession } from './session';
import { Button, Dialog, ErrorLine, Field, css as s } from './ui';

/**
 * The fresh second factor the server asks for before a payout, an approval, the rate or a role
 * (403 `ops.errors.stepUp`): a dialog for a code or the passkey; the refused call is then sent
 * again (api.ts). Mounted once inside the back office.
 */
export function StepUp() {
  const { me, refresh } = useSession();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const settle = useRef<((given: boolean) => void) | null>(null);

  useEffect(() => {
    handleStepUp(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setCode('');
          setError(null);
          setOpen(true);
        }),
    );
    return () => handleStepUp(null);
  }, []);

  const finish = (given: boolean) => {
    setOpen(false);
    settle.current?.(given);
    settle.current = null;
    if (given) void refresh();
  };

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    setBusy(true);
    const r = await call('verify', { code: codeOf(code) });
    setBusy(false);
    if (r.ok) finish(true);
    else setError(r.error);
  }

  async function withPasskey() {
    setBusy(true);
    const proof = await passkeyProof();
    const r = proof.ok ? await call('verify', proof.data) : proof;
    setBusy(false);
    if (r.ok) finish(true);
    else setError(r.error);
  }

  return (
    <Dialog open={open} title="Confirm it is you" onClose={() => finish(false)}>
      <p className={s.muted}>
        Payouts, approvals, the exchange rate and roles need a second factor given in the last few minutes.
      </p>
      <form className={s.stack} onSubmit={submit}>
        {me?.factors.totp && (
          <Field id="stepup-code" label="Code from your authenticator app">
            <input
              id="stepup-code"
              className={`${s.input} ${s.mono}`}
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              value={code}
              onChange={(e) => setCode(codeOf(e.target.value))}
            />
          </Field>
        )}
        <ErrorLine error={error} />
        <div className={s.dialogActions}>
          <Button tone="ghost" onClick={() => finish(false)}>
            Cancel
          </Button>
          {me && me.factors.passkeys > 0 && (
            <Button onClick={() => void withPasskey()} busy={busy}>
              Use passkey
            </Button>
          )}
          {me?.factors.totp && (
            <Button tone="primary" type="submit" busy={busy} disabled={code.length !== 6}>
              Confirm
            </Button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
