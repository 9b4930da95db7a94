import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { isTransportFailure } from '../shared/call';
import { checkPasswordsMatch, checkTradePassword } from '../shared/rules';
import { toast } from '../store/ui';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { PinInput } from '../ui/PinInput';
import ui from '../ui/ui.module.css';
import { withStepUp } from './stepUp';

/**
 * The transaction password dialog (SPEC §4/§5): first time, two 6-digit entries (first, then
 * confirm); to change it, the current code first, then the two entries. Used by settings, by
 * block trading/QIP and by TradePasswordPrompt (withdrawals, bank cards) when the user has none yet.
 */
export type TradePasswordMode = 'first' | 'change';

export function TradePasswordDialog({
  open,
  mode,
  onClose,
  onDone,
}: {
  open: boolean;
  mode: TradePasswordMode;
  onClose: () => void;
  /** Gets the code just set, so an action waiting on it can go on without asking again. */
  onDone: (code: string) => void;
}) {
  const { t } = useTranslation();
  const steps = mode === 'first' ? (['new', 'confirm'] as const) : (['current', 'new', 'confirm'] as const);
  const [step, setStep] = useState(0);
  const [codes, setCodes] = useState({ current: '', new: '', confirm: '' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = steps[step]!;

  function reset() {
    setStep(0);
    setCodes({ current: '', new: '', confirm: '' });
    setError(null);
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem =
      key === 'confirm'
        ? (codes.confirm === '' && 'tradePassword.confirmRequired') ||
          checkPasswordsMatch(codes.new, codes.confirm)
        : checkTradePassword(codes[key]);
    setError(problem || null);
    if (problem) return;
    if (step < steps.length - 1) {
      setStep(step + 1);
      return;
    }
    setBusy(true);
    // The first one needs a fresh proof of the account's second factor, where it has one.
    const result = await withStepUp(() =>
      call(
        'passwordUp',
        mode === 'first'
          ? { type: 'transaction', is_first: true, fund_code_new: codes.new }
          : { type: 'transaction', fund_code: codes.current, fund_code_new: codes.new },
      ),
    );
    setBusy(false);
    if (!result.ok) {
      const fallback = mode === 'first' ? 'tradePassword.setFailed' : 'tradePassword.changeFailed';
      setError(isTransportFailure(result.error) ? fallback : result.error);
      if (result.error === 'errors.fundPasswordWrong') {
        setCodes({ current: '', new: '', confirm: '' });
        setStep(0);
      }
      return;
    }
    toast(mode === 'first' ? 'tradePassword.setSuccess' : 'tradePassword.changeSuccess', 'success');
    const code = codes.new;
    reset();
    onDone(code);
  }

  const labels = {
    current: 'tradePassword.current',
    new: 'tradePassword.new',
    confirm: 'tradePassword.confirm',
  } as const;
  return (
    <Dialog
      open={open}
      sheet
      title={t(mode === 'first' ? 'tradePassword.titleFirst' : 'tradePassword.titleChange')}
      onClose={() => {
        reset();
        onClose();
      }}
    >
      <form onSubmit={onSubmit} noValidate className={ui.dialogForm}>
        <p className={ui.dialogNote}>{t('tradePassword.explain')}</p>
        <PinInput
          key={key}
          label={t(labels[key])}
          value={codes[key]}
          onChange={(v) => {
            setCodes((c) => ({ ...c, [key]: v }));
            setError(null);
          }}
          error={error ? t(error) : null}
          autoFocus
        />
        <Button type="submit" block loading={busy}>
          {t(step < steps.length - 1 ? 'tradePassword.next' : 'common.confirm')}
        </Button>
      </form>
    </Dialog>
  );
}
