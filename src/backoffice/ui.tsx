import { type ButtonHTMLAttributes, type ReactNode, useEffect, useId, useRef } from 'react';
import { ICON_PATHS, LineIcon } from '../common/icons';
import { message } from './api';
import { duration } from './format';
import s from './ops.module.css';

/** The back office's small kit: buttons, badges, cards, fields, a dialog, icons (drawn as both apps draw them: src/common). */

export { s as css };

/** `primary` starts or moves money (Pay); `approve` is a second person's yes (Approve): never alike. */
type Tone = 'default' | 'primary' | 'approve' | 'danger' | 'ghost';
const TONE_CLASS: Record<Tone, string> = {
  default: '',
  primary: s.primary ?? '',
  approve: s.approve ?? '',
  danger: s.danger ?? '',
  ghost: s.ghost ?? '',
};

export function Button({
  tone = 'default',
  small,
  busy,
  className,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: Tone; small?: boolean; busy?: boolean }) {
  const toneClass = TONE_CLASS[tone];
  return (
    <button
      type="button"
      {...rest}
      disabled={rest.disabled || busy}
      aria-busy={busy || undefined}
      className={[s.button, toneClass, small ? s.smallButton : '', className ?? ''].join(' ')}
    >
      {children}
    </button>
  );
}

export function Badge({ tone, children }: { tone?: 'info' | 'warn' | 'danger' | 'ok'; children: ReactNode }) {
  const t = { info: s.badgeInfo, warn: s.badgeWarn, danger: s.badgeDanger, ok: s.badgeOk };
  return <span className={`${s.badge} ${tone ? t[tone] : ''}`}>{children}</span>;
}

export function Card({
  title,
  actions,
  children,
  flush,
  label,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  flush?: boolean;
  label?: string;
}) {
  const id = useId();
  return (
    <section
      className={s.card}
      aria-labelledby={title ? id : undefined}
      aria-label={title ? undefined : label}
    >
      {title && (
        <header className={s.cardHead}>
          <h2 id={id} className={s.cardTitle}>
            {title}
          </h2>
          {actions && <div className={s.row}>{actions}</div>}
        </header>
      )}
      {flush ? children : <div className={s.cardBody}>{children}</div>}
    </section>
  );
}

export function PageHead({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Bourse back office`;
  }, [title]);
  return (
    <div className={s.pageHead}>
      <div>
        <h1 className={s.title}>{title}</h1>
        {subtitle && <p className={s.subtitle}>{subtitle}</p>}
      </div>
      {children && <div className={s.row}>{children}</div>}
    </div>
  );
}

export function ErrorLine({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p className={s.error} role="alert">
      {message(error)}
    </p>
  );
}

/** A page's last decision: what was refused, or what happened. */
export function Outcome({ error, note }: { error: string | null; note: string | null }) {
  return (
    <>
      <ErrorLine error={error} />
      {note && (
        <p className={`${s.ok} ${s.banner}`} role="status">
          {note}
        </p>
      )}
    </>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className={s.empty}>{children}</p>;
}

/** How long something has waited, red once past its target. */
export function Age({ since, now, target }: { since: number | null; now: number; target?: number }) {
  if (since === null) return <span className={s.muted}>—</span>;
  const age = now - since;
  const late = target !== undefined && age > target;
  return <span className={late ? s.late : undefined}>{duration(age)}</span>;
}

export function Field({
  label,
  hint,
  children,
  id,
}: {
  label: string;
  hint?: ReactNode;
  children: ReactNode;
  id: string;
}) {
  return (
    <div className={s.field}>
      <label className={s.label} htmlFor={id}>
        {label}
      </label>
      {children}
      {hint && <span className={s.hint}>{hint}</span>}
    </div>
  );
}

/** A modal dialog (the platform's <dialog>: focus is kept inside, Escape closes it). */
export function Dialog({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={s.dialog}
      aria-labelledby={id}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <div className={s.dialogBody}>
          <h2 id={id} className={s.dialogTitle}>
            {title}
          </h2>
          {children}
        </div>
      )}
    </dialog>
  );
}

export function Tabs<T extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: T;
  options: Array<[T, string]>;
  onChange: (v: T) => void;
  label: string;
}) {
  return (
    <div className={s.tabs} role="tablist" aria-label={label}>
      {options.map(([v, text]) => (
        <button
          key={v}
          type="button"
          role="tab"
          aria-selected={v === value}
          className={s.tab}
          onClick={() => onChange(v)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

const ICONS = {
  queue: 'M4 6h16M4 12h16M4 18h10',
  chat: 'M4 5h16v11H8l-4 4z',
  id: 'M3 5h18v14H3zM7 10a2 2 0 1 0 4 0a2 2 0 1 0-4 0M6 16c1-2 5-2 6 0M14 9h4M14 13h4',
  payout: 'M3 7h18v10H3zM3 11h18M7 15h3',
  loan: 'M7 4h11M7 9h11M10 4c3.5 0 5 2 5 5s-1.5 5-5 5H7l8 7',
  deposit: 'M3 7h18v12H3zM12 3v9M8.5 8.5 12 12l3.5-3.5',
  check: ICON_PATHS.check,
  lock: ICON_PATHS.lock,
  download: 'M12 4v11M7.5 10.5 12 15l4.5-4.5M5 20h14',
  ipo: 'M4 20V10M10 20V4M16 20v-7M20 20H2',
  fx: 'M4 8h13l-3-3M20 16H7l3 3',
  news: 'M4 5h13v14H6a2 2 0 0 1-2-2zM17 9h3v8a2 2 0 0 1-2 2M7 9h7M7 13h7',
  people: 'M8 11a3 3 0 1 0 0-6a3 3 0 0 0 0 6M2 20c0-3 3-5 6-5s6 2 6 5M16 5a3 3 0 0 1 0 6M18 15c2 .5 4 2 4 5',
  audit: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13l2 2 4-4',
  search: ICON_PATHS.search,
  zoomIn: 'M11 18a7 7 0 1 0 0-14a7 7 0 0 0 0 14M20 20l-4-4M8 11h6M11 8v6',
  zoomOut: 'M11 18a7 7 0 1 0 0-14a7 7 0 0 0 0 14M20 20l-4-4M8 11h6',
  rotate: 'M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7',
  reset: 'M4 4h6M4 4v6M20 20h-6M20 20v-6M4 20h6M4 20v-6M20 4h-6M20 4v6',
  sun: 'M12 17a5 5 0 1 0 0-10a5 5 0 0 0 0 10M12 1v2M12 21v2M4.2 4.2l1.4 1.4M18.4 18.4l1.4 1.4M1 12h2M21 12h2M4.2 19.8l1.4-1.4M18.4 5.6l1.4-1.4',
  moon: 'M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8',
  out: 'M15 4h4v16h-4M10 17l5-5-5-5M15 12H3',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
} as const;

export type IconName = keyof typeof ICONS;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return <LineIcon d={ICONS[name]} size={size} />;
}
