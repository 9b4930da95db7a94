import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import s from './ui.module.css';

/**
 * Every field's frame, written once (TextField and the fields built on it, PinInput, the quantity
 * stepper): the label, with `aside` at its end (a limit, a "use max" link) in the label's type; the
 * control the caller passes; then the hint and the error, each with the id `fieldDescribedBy`
 * names for the control's aria-describedby. An error marks the frame invalid, which turns a
 * `ui.control` inside it red.
 */
export function FieldFrame({
  id,
  label,
  aside,
  hint,
  error,
  className,
  children,
}: {
  /** The control's id: the label points at it, the hint and error ids derive from it. */
  id: string;
  label: ReactNode;
  aside?: ReactNode;
  hint?: ReactNode;
  /** Translated message shown under the field; marks it invalid. */
  error?: string | null;
  /** Beside the kit's column (a control that wants other spacing). */
  className?: string;
  children: ReactNode;
}) {
  const labelled = (
    <label className={s.label} htmlFor={id}>
      {label}
    </label>
  );
  return (
    <div className={`${s.field} ${error ? s.invalid : ''} ${className ?? ''}`}>
      {aside ? (
        <div className={s.labelRow}>
          {labelled}
          {aside}
        </div>
      ) : (
        labelled
      )}
      {children}
      {hint && (
        <span id={`${id}-hint`} className={s.hint}>
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className={s.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** What describes the control inside a FieldFrame (the error first, then the hint), or undefined. */
export function fieldDescribedBy(id: string, error?: string | null, hint?: ReactNode): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Translated message shown under the field; marks it invalid. */
  error?: string | null;
  /** Shown while there is no error (the error takes its place). */
  hint?: ReactNode;
  start?: ReactNode;
  end?: ReactNode;
}

export function TextField({ label, value, onChange, error, hint, start, end, id, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const shownHint = error ? undefined : hint;
  return (
    <FieldFrame id={inputId} label={label} hint={shownHint} error={error}>
      <div className={s.control}>
        {start && <span className={s.adornment}>{start}</span>}
        <input
          id={inputId}
          className={s.input}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy(inputId, error, shownHint)}
          {...rest}
        />
        {end && <span className={s.adornment}>{end}</span>}
      </div>
    </FieldFrame>
  );
}
