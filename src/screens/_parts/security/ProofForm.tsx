import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import type { CallResult } from '../../../shared/call';
import { AuthError } from '../../../shell/AuthLayout';
import { Button, IconFingerprint, TextField } from '../../../ui';
import s from './security.module.css';
import { passkeysSupported, signWithPasskey } from './webauthn';

export type Method = 'passkey' | 'totp' | 'recovery';
/** One proof of a second factor, as the contract's bodies take it. */
export type Proof = { passkey: Record<string, unknown> } | { code: string } | { recovery: string };

/** A 6-digit code as typed: digits only. */
const digits = (v: string) => v.replace(/\D+/g, '').slice(0, 6);

/**
 * Proving a second factor: the passkey first where the account has one, else or also
 * the authenticator app's code, and a recovery code behind a link. Used by the login's second
 * step (with the step's `token`) and by every change that needs a second factor. `onProof` sends
 * the proof and answers the refusal's key, or null when it was accepted.
 */
export function ProofForm({
  methods,
  token,
  submitLabel,
  onProof,
}: {
  methods: readonly Method[];
  token?: string;
  submitLabel: string;
  onProof: (proof: Proof) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const passkey = methods.includes('passkey') && passkeysSupported();
  const totp = methods.includes('totp');
  const [recovery, setRecovery] = useState(!passkey && !totp && methods.includes('recovery'));
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Method | null>(null);

  async function send(kind: Method, proof: () => Promise<CallResult<Proof>>) {
    setBusy(kind);
    setError(null);
    const made = await proof();
    const refused = made.ok ? await onProof(made.data) : made.error;
    setBusy(null);
    setError(refused);
    if (refused && kind !== 'passkey') setCode('');
  }

  const withPasskey = () =>
    send('passkey', async () => {
      const options = await call('factorChallenge', {}, { token });
      if (!options.ok) return options;
      const signed = await signWithPasskey(options.data);
      return signed.ok ? { ok: true, data: { passkey: signed.data } } : signed;
    });

  function submitCode(e: FormEvent) {
    e.preventDefault();
    if (recovery) {
      if (!code.trim()) return setError('errors.recoveryFormat');
      void send('recovery', async () => ({ ok: true, data: { recovery: code.trim() } }));
    } else {
      if (code.length !== 6) return setError('errors.codeFormat');
      void send('totp', async () => ({ ok: true, data: { code } }));
    }
  }

  return (
    <div className={s.stack}>
      {passkey && !recovery && (
        <Button block loading={busy === 'passkey'} disabled={busy !== null} onClick={withPasskey}>
          <IconFingerprint size={20} />
          {t('auth.second.usePasskey')}
        </Button>
      )}
      {passkey && (totp || recovery) && <div className={s.or}>{t('auth.second.or')}</div>}
      {(totp || recovery) && (
        <form className={s.stack} onSubmit={submitCode} noValidate>
          {recovery ? (
            <div className={s.code}>
              <TextField
                label={t('auth.second.recoveryLabel')}
                value={code}
                onChange={setCode}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                placeholder="xxxxx-xxxxx"
              />
            </div>
          ) : (
            <div className={s.code}>
              <TextField
                label={t('auth.second.codeLabel')}
                hint={t('auth.second.codeHint')}
                value={code}
                onChange={(v) => setCode(digits(v))}
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                placeholder="123456"
              />
            </div>
          )}
          <Button
            type="submit"
            block
            variant={passkey ? 'secondary' : 'primary'}
            loading={busy === 'totp' || busy === 'recovery'}
            disabled={busy !== null}
          >
            {submitLabel}
          </Button>
        </form>
      )}
      <AuthError error={error} fallback="auth.second.failed" />
      {methods.includes('recovery') && (
        <button
          type="button"
          className={s.linkButton}
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            setError(null);
          }}
        >
          {recovery ? t('auth.second.backToFactor') : t('auth.second.useRecovery')}
        </button>
      )}
    </div>
  );
}
