import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, onSessionEnded, worker } from '../api/client';
import { useOnline } from '../api/connection';
import { signWithPasskey, warmPasskeys } from '../screens/_parts/security/webauthn';
import { useSession } from '../store/session';
import { toast } from '../store/ui';
import { Button } from '../ui/Button';
import { IconFingerprint } from '../ui/icons';
import { PasswordField } from '../ui/PasswordField';
import { AuthError, AuthLayout, authStyles as a } from './AuthLayout';
import { useLock } from './lock';
import { endSession } from './session';
import s from './shell.module.css';

/**
 * The app lock's screen: shown instead of every route while locked, so no private
 * figure is in the DOM. Opens with the passkey — checked by the server, or offline by the device
 * against the passkey's public key (the sync worker, workers/api/lock.ts) — or with the login
 * password (online). Signing out is always possible.
 */
export function LockScreen() {
  const { t } = useTranslation();
  const unlock = useLock((st) => st.unlock);
  const phone = useSession((st) => st.userInfo?.user ?? '');
  const online = useOnline();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'passkey' | 'password' | null>(null);
  const [passkeys, setPasskeys] = useState(0);

  // The server ended the session meanwhile (the routes' shell, which listens otherwise, is not here).
  useEffect(() => onSessionEnded(() => void endSession()), []);

  useEffect(() => {
    warmPasskeys();
    let live = true;
    void worker()
      .lockPasskeys()
      .then((n) => live && setPasskeys(n));
    return () => {
      live = false;
    };
  }, []);

  async function withPasskey() {
    setBusy('passkey');
    setError(null);
    const options = await worker().unlockOptions();
    const signed = options.ok ? await signWithPasskey(options.data) : options;
    const checked = signed.ok ? await worker().unlockWithPasskey(signed.data as never) : signed;
    setBusy(null);
    if (!checked.ok) return setError(checked.error);
    unlock();
    if (checked.data.device) toast('core.lock.openedOnDevice', 'info');
  }

  async function withPassword(e: FormEvent) {
    e.preventDefault();
    if (!password) return setError('core.lock.passwordMissing');
    setBusy('password');
    setError(null);
    const r = await call('unlock', { password });
    setBusy(null);
    setPassword('');
    if (r.ok) unlock();
    else setError(r.error);
  }

  return (
    <AuthLayout
      title={t('core.lock.title')}
      subtitle={t('core.lock.subtitle', { phone: `•••• ${phone.slice(-4)}` })}
      footer={
        <button type="button" className={s.lockSignOut} onClick={() => void endSession()}>
          {t('core.lock.signOut')}
        </button>
      }
    >
      <div className={a.form} data-testid="lock-screen">
        {passkeys > 0 && (
          <Button block loading={busy === 'passkey'} disabled={busy !== null} onClick={withPasskey}>
            <IconFingerprint size={20} />
            {t('core.lock.passkey')}
          </Button>
        )}
        <form className={a.form} onSubmit={withPassword} noValidate>
          <PasswordField
            label={t('auth.password')}
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            disabled={!online}
          />
          {!online && <p className={a.notice}>{t('core.lock.offline')}</p>}
          <Button
            type="submit"
            block
            variant={passkeys > 0 ? 'secondary' : 'primary'}
            loading={busy === 'password'}
            disabled={busy !== null || !online}
          >
            {t('core.lock.unlock')}
          </Button>
        </form>
        <AuthError error={error} fallback="core.passkey.failed" />
      </div>
    </AuthLayout>
  );
}
