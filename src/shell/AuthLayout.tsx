import type { ReactNode } from 'react';
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
  return (
    <main className={s.screen}>
      <div className={s.brand}>
        <img className={s.logo} src="/icons/icon.svg" alt="" width={44} height={44} />
        <span className={s.brandName}>Bourse</span>
      </div>
      <h1 className={s.title}>{title}</h1>
      {subtitle && <p className={s.subtitle}>{subtitle}</p>}
      {children}
      {footer && <div className={s.footer}>{footer}</div>}
    </main>
  );
}

export { s as authStyles };
