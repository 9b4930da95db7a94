import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { QrCode } from '../../common/QrCode';
import { call, session } from '../api';
import { codeOf, passkeyRegistration } from '../factor';
import { OPS_PATHS } from '../paths';
import { useSession } from '../session';
import { Button, ErrorLine, Field, css as s } from '../ui';

/**
 * A new member's enrolment: the one-time link's token (in the URL's fragment, so it
 * never reaches a server log) with a password of their own, then a second factor — an
 * authenticator app (scan the code, type its first code) or a passkey. Until one is set up the
 * session opens nothing else.
 */
export function Enrol() {
  const { me, refresh } = useSession();
  const navigate = useNavigate();
  const [token] = useState(() => window.location.hash.slice(1));
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const step = me?.stage === 'enrol' ? 'factor' : 'password';

  useEffect(() => {
    // The token is kept in memory only; the address bar no longer shows it.
    if (window.location.hash) history.replaceState(null, '', window.location.pathname);
  }, []);

  async function setPasswordStep(e: FormEvent) {
    e.preventDefault();
    if (password !== again) return setError('mismatch');
    setBusy(true);
    setError(null);
    const r = await call('enrol', { token, password });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    session.set(r.data.token);
    await refresh();
  }

  async function beginApp() {
    setBusy(true);
    setError(null);
    const r = await call('totpBegin');
    setBusy(false);
    if (!r.ok) return setError(r.error);
    setSetup(r.data);
  }

  async function confirmApp(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await call('totpConfirm', { code: codeOf(code) });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    navigate(OPS_PATHS.queues, { replace: true });
    await refresh();
  }

  async function addPasskey() {
    setBusy(true);
    setError(null);
    const made = await passkeyRegistration();
    const r = made.ok ? await call('passkeyRegister', { response: made.data }) : made;
    setBusy(false);
    if (!r.ok) return setError(r.error);
    navigate(OPS_PATHS.queues, { replace: true });
    await refresh();
  }

  return (
    <main className={s.auth}>
      <div className={`${s.card} ${s.authCard}`}>
        {step === 'password' ? (
          <form className={s.stack} onSubmit={setPasswordStep}>
            <h1 className={s.title}>Welcome to the back office</h1>
            <p className={s.muted}>Choose your password. Next you will set up a second factor.</p>
            {!token && <p className={s.notice}>This page needs the enrolment link an admin sent you.</p>}
            <Field id="new-password" label="Password" hint="12 characters or more.">
              <input
                id="new-password"
                type="password"
                className={s.input}
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
            <Field id="new-password-again" label="Password again">
              <input
                id="new-password-again"
                type="password"
                className={s.input}
                autoComplete="new-password"
                value={again}
                onChange={(e) => setAgain(e.target.value)}
              />
            </Field>
            {error === 'mismatch' ? (
              <p className={s.error} role="alert">
                The two passwords differ.
              </p>
            ) : (
              <ErrorLine error={error} />
            )}
            <Button tone="primary" type="submit" busy={busy} disabled={!token || password.length < 12}>
              Set password
            </Button>
          </form>
        ) : setup ? (
          <form className={s.stack} onSubmit={confirmApp}>
            <h1 className={s.title}>Scan with your authenticator app</h1>
            <QrCode className={s.qr} text={setup.uri} label="QR code for your authenticator app" />
            <p className={s.hint}>Or type this key into the app:</p>
            <p className={s.secret} data-testid="totp-secret">
              {setup.secret}
            </p>
            <Field id="first-code" label="The code the app shows">
              <input
                id="first-code"
                className={`${s.input} ${s.mono}`}
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(codeOf(e.target.value))}
              />
            </Field>
            <ErrorLine error={error} />
            <Button tone="primary" type="submit" busy={busy} disabled={code.length !== 6}>
              Turn on and continue
            </Button>
          </form>
        ) : (
          <div className={s.stack}>
            <h1 className={s.title}>Set up your second factor</h1>
            <p className={s.muted}>
              Every sign-in, payout and approval asks for it. Choose one; you cannot skip this step.
            </p>
            <ErrorLine error={error} />
            <Button tone="primary" onClick={() => void beginApp()} busy={busy}>
              Authenticator app
            </Button>
            <Button onClick={() => void addPasskey()} busy={busy}>
              Passkey (this device)
            </Button>
            <Button tone="ghost" onClick={() => session.clear()}>
              Sign out
            </Button>
          </div>
        )}
      </div>
    </main>
  );
}
