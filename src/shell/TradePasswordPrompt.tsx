import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkTradePassword } from '../shared/rules';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { PinInput } from '../ui/PinInput';
import ui from '../ui/ui.module.css';
import { TradePasswordDialog } from './TradePasswordDialog';

/** Answers that are about the code itself: the prompt stays open and shows them under it. */
const CODE_ERRORS = new Set([
  'errors.fundPasswordWrong',
  'errors.fundPasswordLocked',
  'hint.tradePasswordInvalid',
  'errors.fundPasswordNotSet',
]);
export const isTradePasswordError = (key: string) => CODE_ERRORS.has(key);

/**
 * Asks for the 6-digit transaction password before an action that moves money out or redirects
 * it (a withdrawal, adding or editing a bank card). A user without one sets it first
 * (TradePasswordDialog) and the action goes on with the code just set. `onSubmit` sends the action
 * with the code and answers a code error to show (`isTradePasswordError`), or null when it is done
 * with the answer (the prompt closes; the caller shows any other outcome).
 */
export function TradePasswordPrompt({
  hasPassword,
  message,
  onClose,
  onSubmit,
}: {
  /** From userInfo's `has_fund_password`. */
  hasPassword: boolean;
  /** What the code confirms, e.g. the amount of the withdrawal. */
  message: string;
  onClose: () => void;
  onSubmit: (code: string) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const [setting, setSetting] = useState(!hasPassword);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(value: string) {
    setBusy(true);
    const problem = await onSubmit(value);
    setBusy(false);
    if (problem === null) return;
    setCode('');
    setError(problem);
  }

  function onConfirm(e: FormEvent) {
    e.preventDefault();
    const problem = checkTradePassword(code);
    if (problem) {
      setError(problem);
      return;
    }
    void send(code);
  }

  if (setting) {
    return (
      <TradePasswordDialog
        open
        mode="first"
        onClose={onClose}
        onDone={(fresh) => {
          setSetting(false);
          void send(fresh);
        }}
      />
    );
  }
  return (
    <Dialog open sheet title={t('tradePassword.askTitle')} onClose={onClose}>
      <form onSubmit={onConfirm} noValidate className={ui.dialogForm}>
        <p className={ui.dialogNote}>{message}</p>
        <PinInput
          label={t('tradePassword.code')}
          value={code}
          onChange={(v) => {
            setCode(v);
            setError(null);
          }}
          error={error ? t(error) : null}
          autoFocus
        />
        <div className={ui.dialogActions}>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('common.confirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
