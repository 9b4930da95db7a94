import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../api/useOnline';
import { Button, type ButtonProps } from './Button';
import s from './core.module.css';

/**
 * Whether a money action (order, recharge, withdrawal, loan, IPO or fund purchase) may start now,
 * and if not, why (DESIGN rule 6: money never moves offline; it is never queued).
 */
export function useMoneyAction(): { allowed: boolean; reason: string | null } {
  const { t } = useTranslation();
  const online = useOnline();
  return online ? { allowed: true, reason: null } : { allowed: false, reason: t('core.money.offline') };
}

/**
 * A Button for money actions: disabled offline, with the reason shown under it and announced.
 * Pair it with an Idempotency-Key per action (src/api/client.ts newIdempotencyKey).
 */
export function MoneyButton({ disabled, block, ...props }: ButtonProps) {
  const { allowed, reason } = useMoneyAction();
  const id = useId();
  return (
    <span className={`${s.moneyWrap} ${block ? s.moneyBlock : ''}`}>
      <Button
        {...props}
        block={block}
        disabled={disabled || !allowed}
        aria-describedby={reason ? id : undefined}
      />
      {reason && (
        <span id={id} className={s.moneyReason}>
          {reason}
        </span>
      )}
    </span>
  );
}
