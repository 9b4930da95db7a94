import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { IconPhone } from '../ui/icons';
import { PasswordField } from '../ui/PasswordField';
import { useScreenHeading } from '../ui/screenHeading';
import { TextField } from '../ui/TextField';
import s from './auth.module.css';

/** The frame of the public screens: brand, title, the form, and a footer link. */
export function AuthLayout({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useScreenHeading(heading);
  return (
    <main className={s.screen}>
      <div className={s.brand}>
        <img className={s.logo} src="/icons/icon.svg" alt="" width={44} height={44} />
        <span className={s.brandName}>Bourse</span>
      </div>
      <h1 ref={heading} className={s.title} tabIndex={-1}>
        {title}
      </h1>
      {subtitle && <p className={s.subtitle}>{subtitle}</p>}
      {children}
      {footer && <div className={s.footer}>{footer}</div>}
    </main>
  );
}

/** The phone number of the public forms (login, register, forgot password). */
export function PhoneField({
  value,
  onChange,
  autoComplete,
}: {
  value: string;
  /** Absent: the number is shown, not edited (forgot password fills it from the device). */
  onChange?: (value: string) => void;
  autoComplete?: 'username' | 'tel-national';
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('auth.phone')}
      value={value}
      onChange={onChange ?? (() => {})}
      readOnly={!onChange}
      inputMode={onChange && 'numeric'}
      autoComplete={autoComplete}
      placeholder={onChange && t('auth.phonePlaceholder')}
      start={<IconPhone size={18} />}
    />
  );
}

/** A new password and its confirmation (register, forgot password). */
export function NewPasswordFields({
  label,
  password,
  confirm,
  onPassword,
  onConfirm,
  confirmPlaceholder,
}: {
  label: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  confirmPlaceholder?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={label}
        value={password}
        onChange={onPassword}
        autoComplete="new-password"
        placeholder={t('auth.newPasswordPlaceholder')}
      />
      <PasswordField
        label={t('auth.confirmPassword')}
        value={confirm}
        onChange={onConfirm}
        autoComplete="new-password"
        placeholder={confirmPlaceholder}
      />
    </>
  );
}

/** A public form's failure: the server's key, or `fallback` when the key has no message. */
export function AuthError({ error, fallback }: { error: string | null; fallback: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p className={s.notice} role="alert">
      {t(error, { defaultValue: t(fallback) })}
    </p>
  );
}

export { s as authStyles };
