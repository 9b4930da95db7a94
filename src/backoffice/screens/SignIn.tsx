import { type FormEvent, useState } from 'react';
import { call, session } from '../api';
import { codeOf, passkeyProof } from '../factor';
import { useSession } from '../session';
import { Button, ErrorLine, Field, css as s } from '../ui';

/**
 * Staff sign-in: login and password, then the second factor — a code or a passkey. There is no
 * way past the second step: the server opens nothing to a session that has not given it.
 */
export function SignIn() {
  const { me, refresh } = useSession();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const step = me?.stage === 'verify' ? 'factor' : 'password';

  async function signIn(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const r = await call('login', { login, password });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    session.set(r.data.token);
    setPassword('');
    await refresh();
  }

  async function verify(e?: FormEvent) {
    e?.preventDefault();
    setBusy(true);
    setError(null);
    const r = await call('verify', { code: codeOf(code) });
    setBusy(false);
    if (!r.ok) return setError(r.error);
    await refresh();
  }

  async function withPasskey() {
    setBusy(true);
    setError(null);
    const proof = await passkeyProof();
    const r = proof.ok ? await call('verify', proof.data) : proof;
    setBusy(false);
    if (!r.ok) return setError(r.error);
    await refresh();
  }

  return (
    <main className={s.auth}>
      <div className={`${s.card} ${s.authCard}`}>
        <div className={s.authBrand}>
          <span className={s.brandMark} aria-hidden="true">
            B
          </span>
          <div>
            Bourse<span className={s.brandSub}>Back office</span>
          </div>
        </div>
        {step === 'password' ? (
          <form className={s.stack} onSubmit={signIn}>
            <h1 className={s.title}>Sign in</h1>
            <Field id="login" label="Login">
              <input
                id="login"
                className={s.input}
                autoComplete="username"
                autoCapitalize="none"
                autoFocus
                value={login}
                onChange={(e) => setLogin(e.target.value)}
              />
            </Field>
            <Field id="password" label="Password">
              <input
                id="password"
                type="password"
                className={s.input}
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </Field>
            <ErrorLine error={error} />
            <Button tone="primary" type="submit" busy={busy} disabled={!login || !password}>
              Continue
            </Button>
            <p className={`${s.hint}`}>New here? Open the enrolment link an admin sent you.</p>
          </form>
        ) : (
          <form className={s.stack} onSubmit={verify}>
            <h1 className={s.title}>Second factor</h1>
            <p className={s.muted}>
              Signed in as {me?.login}. Give your second factor to open the back office.
            </p>
            {me?.factors.totp && (
              <Field id="code" label="Code from your authenticator app">
                <input
                  id="code"
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
            {me?.factors.totp && (
              <Button tone="primary" type="submit" busy={busy} disabled={code.length !== 6}>
                Verify
              </Button>
            )}
            {me && me.factors.passkeys > 0 && (
              <Button onClick={() => void withPasskey()} busy={busy}>
                Use passkey
              </Button>
            )}
            <Button tone="ghost" onClick={() => session.clear()}>
              Use another login
            </Button>
          </form>
        )}
      </div>
    </main>
  );
}
