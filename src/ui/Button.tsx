import type { ButtonHTMLAttributes, ReactNode } from 'react';
import s from './ui.module.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger' | 'buy' | 'sell';
  block?: boolean;
  loading?: boolean;
  /**
   * The form is not valid yet: the button looks disabled and says so (aria-disabled) but a tap
   * still submits, and the form shows what is missing (the password screens' rule).
   */
  unready?: boolean;
  children: ReactNode;
}

/**
 * A button; while `loading` it is busy and refuses taps but keeps the keyboard's focus: a
 * `disabled` button drops the focus to the page, and a keyboard or screen-reader user who pressed
 * Confirm would be thrown out of the sheet before its result arrived.
 */
export function Button({
  variant = 'primary',
  block,
  loading,
  unready,
  disabled,
  className,
  children,
  type = 'button',
  onClick,
  ...rest
}: ButtonProps) {
  const classes = [s.button, s[variant], block ? s.block : '', className ?? ''].join(' ');
  const busy = Boolean(loading) && !disabled;
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled}
      aria-busy={loading || undefined}
      aria-disabled={busy ? true : unready}
      onClick={busy ? (e) => e.preventDefault() : onClick}
      {...rest}
    >
      {loading && <span className={s.spinner} aria-hidden="true" />}
      {children}
    </button>
  );
}

export function IconButton({
  label,
  children,
  badge,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { label: string; badge?: number }) {
  return (
    <button type="button" className={s.iconButton} aria-label={label} title={label} {...rest}>
      {children}
      {badge ? (
        <span className={s.badge} aria-hidden="true">
          {badge > 99 ? '99+' : badge}
        </span>
      ) : null}
    </button>
  );
}
