import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import s from './ui.module.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Translated message shown under the field; marks it invalid. */
  error?: string | null;
  hint?: ReactNode;
  start?: ReactNode;
  end?: ReactNode;
}

export function TextField({ label, value, onChange, error, hint, start, end, id, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <div className={`${s.field} ${error ? s.invalid : ''}`}>
      <label className={s.label} htmlFor={inputId}>
        {label}
      </label>
      <div className={s.control}>
        {start && <span className={s.adornment}>{start}</span>}
        <input
          id={inputId}
          className={s.input}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...rest}
        />
        {end && <span className={s.adornment}>{end}</span>}
      </div>
      {error ? (
        <span id={`${inputId}-error`} className={s.error} role="alert">
          {error}
        </span>
      ) : hint ? (
        <span id={`${inputId}-hint`} className={s.hint}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}
