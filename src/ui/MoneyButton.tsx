import { type MouseEvent, useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnectionState } from '../api/connection';
import type { MoneyPhase } from '../api/money';
import { useUi } from '../store/ui';
import { Button, type ButtonProps } from './Button';
import s from './core.module.css';

/**
 * Whether a money action (order, recharge, withdrawal, loan, IPO or fund purchase) may start now,
 * and if not, why: only while the server answers (online or slow). Offline or unreachable it is
 * paused with the reason (DESIGN rule 6 and "Reachability": money never moves on a guess).
 */
function useMoneyAction(): { allowed: boolean; reason: string | null } {
  const { t } = useTranslation();
  const state = useConnectionState();
  if (state === 'offline') return { allowed: false, reason: t('core.money.offline') };
  if (state === 'unreachable') return { allowed: false, reason: t('core.money.unreachable') };
  return { allowed: true, reason: null };
}

/** The part of a useMoneyCall (src/api/money.ts) the button shows. */
export interface MoneyCallState {
  phase: MoneyPhase;
  resend: () => void;
  dismiss: () => void;
}

/**
 * A Button for money actions — the one place they are paused: disabled offline or while the server
 * cannot be reached, with the reason shown under it and announced. Given the action's `call`
 * (useMoneyCall), it also shows what became of a sent request: sending, "we are checking whether
 * this reached us" while unconfirmed, and for a request the server never received, "Submit again"
 * (same Idempotency-Key) or "Don't send". A button the form keeps off (`disabled`) names why in
 * `reason` ("Enter a quantity"), shown under it and tied to it the same way: never a grey button
 * with no word.
 */
export function MoneyButton({
  disabled,
  unready,
  block,
  call,
  loading,
  children,
  onClick,
  type,
  reason: formReason,
  ...props
}: ButtonProps & { call?: MoneyCallState; reason?: string | null }) {
  const { t } = useTranslation();
  const { allowed, reason } = useMoneyAction();
  const id = useId();
  // A money screen: the update prompt waits until it is left (src/shell/UpdatePrompt.tsx).
  useEffect(() => {
    useUi.getState().moneyShown();
    return () => useUi.getState().moneyGone();
  }, []);
  const phase = call?.phase ?? 'idle';
  const waiting = phase === 'unconfirmed' || phase === 'checking';
  const missing = phase === 'missing';
  const note = waiting
    ? t(phase === 'checking' ? 'core.money.checking' : 'core.money.unconfirmed')
    : missing
      ? t('core.money.missing')
      : (reason ?? (disabled ? (formReason ?? null) : null));
  const resend = (e: MouseEvent<HTMLButtonElement>) => {
    e.preventDefault();
    call?.resend();
  };
  return (
    <span className={`${s.moneyWrap} ${block ? s.moneyBlock : ''}`} data-money-phase={phase}>
      <Button
        {...props}
        type={missing ? 'button' : type}
        onClick={missing ? resend : onClick}
        block={block}
        loading={(loading && !missing) || phase === 'sending' || waiting}
        disabled={(disabled && !missing) || !allowed}
        unready={unready && !missing}
        aria-describedby={note ? id : undefined}
      >
        {missing ? t('core.money.submitAgain') : children}
      </Button>
      {note && (
        <span
          id={id}
          className={`${s.moneyReason} ${waiting || missing ? s.moneyPending : ''}`}
          role={waiting || missing ? 'status' : undefined}
        >
          {note}
        </span>
      )}
      {missing && (
        <button type="button" className={s.moneyDismiss} onClick={call?.dismiss}>
          {t('core.money.dismiss')}
        </button>
      )}
    </span>
  );
}
