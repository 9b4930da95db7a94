import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { QrCode } from '../../../common/QrCode';
import type { Enrolled } from '../../../shared/contract/security';
import { AuthError } from '../../../shell/AuthLayout';
import { withStepUp } from '../../../shell/stepUp';
import { Button, TextField } from '../../../ui';
import s from './security.module.css';

/** The key as an app shows it: groups of four. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Setting up an authenticator app: the server's secret as a QR code and as text, then
 * the app's first code to confirm. `token`: the step session of a forced enrolment at sign-in.
 */
export function TotpEnrol({ token, onDone }: { token?: string; onDone: (enrolled: Enrolled) => void }) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let live = true;
    // Where the account has a factor already, a fresh proof of it first.
    void withStepUp(() => call('totpSetup', {}, { token })).then((r) => {
      if (!live) return;
      if (r.ok) setSetup(r.data);
      else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [token]);

  async function confirm(e: FormEvent) {
    e.preventDefault();
    if (code.length !== 6) return setError('errors.codeFormat');
    setBusy(true);
    const r = await call('totpConfirm', { code }, { token });
    setBusy(false);
    if (r.ok) onDone(r.data);
    else {
      setError(r.error);
      setCode('');
    }
  }

  if (!setup) return <AuthError error={error} fallback="auth.second.failed" />;
  return (
    <form className={s.stack} onSubmit={confirm} noValidate>
      <ol className={s.steps}>
        <li>
          <p className={s.stepTitle}>{t('auth.totp.scan')}</p>
          <div className={s.qrBox}>
            <QrCode className={s.qr} text={setup.uri} label={t('auth.totp.qrLabel')} />
          </div>
        </li>
        <li>
          <p className={s.stepTitle}>{t('auth.totp.manual')}</p>
          <div className={s.key}>
            <span className={s.keyText} data-testid="totp-secret">
              {grouped(setup.secret)}
            </span>
            <Button
              variant="ghost"
              onClick={async () => {
                await navigator.clipboard?.writeText(setup.secret).catch(() => undefined);
                setCopied(true);
              }}
            >
              {copied ? t('auth.recovery.copied') : t('auth.totp.copyKey')}
            </Button>
          </div>
        </li>
        <li>
          <div className={s.code}>
            <TextField
              label={t('auth.totp.confirmLabel')}
              value={code}
              onChange={(v) => setCode(v.replace(/\D+/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              placeholder="123456"
            />
          </div>
        </li>
      </ol>
      <AuthError error={error} fallback="auth.second.failed" />
      <Button type="submit" block loading={busy}>
        {t('auth.totp.confirm')}
      </Button>
    </form>
  );
}
