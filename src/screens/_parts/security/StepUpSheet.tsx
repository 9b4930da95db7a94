import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useStepUp } from '../../../shell/stepUp';
import { Dialog, SkeletonList } from '../../../ui';
import { type Method, ProofForm } from './ProofForm';
import s from './security.module.css';

/**
 * The step-up sheet (src/shell/stepUp.ts): "Confirm it's you" with a factor the account
 * already has — its passkey, authenticator app or a recovery code (ProofForm) — before a change
 * that a stolen session must not make alone. Opened by the shell whenever a call asks for it.
 */
export default function StepUpSheet() {
  const { t } = useTranslation();
  const settle = useStepUp((st) => st.settle);
  const [methods, setMethods] = useState<Method[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!settle) return;
    let live = true;
    setMethods(null);
    setError(null);
    void call('securityState', {}).then((r) => {
      if (!live) return;
      if (!r.ok) return setError(r.error);
      const can: Method[] = [];
      if (r.data.passkeys.some((p) => !p.flagged)) can.push('passkey');
      if (r.data.totp) can.push('totp');
      if (r.data.recovery_left > 0) can.push('recovery');
      setMethods(can);
    });
    return () => {
      live = false;
    };
  }, [settle]);

  return (
    <Dialog open={settle !== null} onClose={() => settle?.(false)} sheet title={t('core.stepUp.title')}>
      <p className={s.sheetHint}>{t('core.stepUp.hint')}</p>
      {methods ? (
        <ProofForm
          methods={methods}
          submitLabel={t('core.stepUp.submit')}
          onProof={async (proof) => {
            const r = await call('stepUp', proof as never);
            if (!r.ok) return r.error;
            settle?.(true);
            return null;
          }}
        />
      ) : error ? (
        <p className={s.sheetHint} role="alert">
          {t(error)}
        </p>
      ) : (
        <SkeletonList rows={2} height={48} />
      )}
    </Dialog>
  );
}
