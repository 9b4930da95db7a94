import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui';
import s from './security.module.css';

/**
 * Ten recovery codes, shown once: each opens the account once when the passkey and the
 * app are lost. Copy them or write them down; the server keeps only their hashes.
 */
export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <div className={s.stack}>
      <p className={s.intro}>{t('auth.recovery.intro')}</p>
      <ol className={s.codes} aria-label={t('auth.recovery.title')} data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <p className={s.warning}>{t('auth.recovery.once')}</p>
      <div className={s.actions}>
        <Button
          variant="secondary"
          block
          onClick={async () => {
            await navigator.clipboard?.writeText(codes.join('\n')).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? t('auth.recovery.copied') : t('auth.recovery.copy')}
        </Button>
        <Button block onClick={onDone}>
          {t('auth.recovery.saved')}
        </Button>
      </div>
    </div>
  );
}
