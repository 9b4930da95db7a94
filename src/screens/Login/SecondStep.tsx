import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { LoginAnswer, PendingStep } from '../../shared/contract/account';
import type { Enrolled } from '../../shared/contract/security';
import { AuthError, AuthLayout, authStyles as a } from '../../shell/AuthLayout';
import { Button, IconFingerprint, IconKey } from '../../ui';
import { ProofForm } from '../_parts/security/ProofForm';
import { enrolPasskey } from '../_parts/security/passkeyEnrol';
import { RecoveryCodes } from '../_parts/security/RecoveryCodes';
import s from '../_parts/security/security.module.css';
import { TotpEnrol } from '../_parts/security/TotpEnrol';
import { passkeysSupported } from '../_parts/security/webauthn';

interface StepProps {
  step: PendingStep;
  onSignedIn: (answer: LoginAnswer) => Promise<void>;
  onCancel: () => void;
}

/** The phone number as the step shows it: its last four digits. */
const tail = (phone: string) => `•••• ${phone.slice(-4)}`;

function CancelLink({ onCancel }: { onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" className={s.linkButton} onClick={onCancel}>
      {t('auth.second.cancel')}
    </button>
  );
}

/**
 * The second step of a sign-in: the password was right; a passkey, the authenticator
 * app's code or a recovery code opens the session. The step's own token carries these calls.
 */
export function SecondStep({ step, onSignedIn, onCancel }: StepProps) {
  const { t } = useTranslation();
  return (
    <AuthLayout
      title={t('auth.second.title')}
      subtitle={t('auth.second.subtitle', { phone: tail(step.user) })}
      footer={<CancelLink onCancel={onCancel} />}
    >
      <div className={a.form}>
        <ProofForm
          methods={step.second.methods}
          token={step.token}
          submitLabel={t('auth.second.verify')}
          onProof={async (proof) => {
            const r = await call('secondFactor', proof as never, { token: step.token });
            if (!r.ok) return r.error;
            await onSignedIn(r.data);
            return null;
          }}
        />
      </div>
    </AuthLayout>
  );
}

/**
 * A forced enrolment (REQUIRE_2FA, no factor yet): the password was right and opens nothing until
 * a passkey or an authenticator app is set up; the recovery codes are shown once, then the full
 * session the enrolment answered signs in.
 */
export function EnrolStep({ step, onSignedIn, onCancel }: StepProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'choose' | 'totp'>('choose');
  const [done, setDone] = useState<Enrolled | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function enrolled(result: Enrolled) {
    if (result.recovery_codes) setDone(result);
    else if (result.session) void onSignedIn(result.session);
  }

  if (done?.recovery_codes)
    return (
      <AuthLayout title={t('auth.recovery.title')}>
        <div className={a.form}>
          <RecoveryCodes
            codes={done.recovery_codes}
            onDone={() => {
              if (done.session) void onSignedIn(done.session);
            }}
          />
        </div>
      </AuthLayout>
    );

  return (
    <AuthLayout
      title={t('auth.enrol.title')}
      subtitle={mode === 'choose' ? t('auth.enrol.subtitle') : t('auth.totp.title')}
      footer={<CancelLink onCancel={mode === 'choose' ? onCancel : () => setMode('choose')} />}
    >
      <div className={a.form}>
        {mode === 'totp' ? (
          <TotpEnrol token={step.token} onDone={enrolled} />
        ) : (
          <div className={s.stack}>
            {passkeysSupported() && (
              <Button
                block
                loading={busy}
                onClick={async () => {
                  setBusy(true);
                  setError(null);
                  const r = await enrolPasskey(t('auth.enrol.defaultName'), step.token);
                  setBusy(false);
                  if (r.ok) enrolled(r.data);
                  else setError(r.error);
                }}
              >
                <IconFingerprint size={20} />
                {t('auth.enrol.passkey')}
              </Button>
            )}
            <Button block variant="secondary" disabled={busy} onClick={() => setMode('totp')}>
              <IconKey size={20} />
              {t('auth.enrol.totp')}
            </Button>
            <AuthError error={error} fallback="auth.second.failed" />
          </div>
        )}
      </div>
    </AuthLayout>
  );
}
