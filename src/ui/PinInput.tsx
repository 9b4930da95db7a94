import { useId, useRef } from 'react';
import s from './pin.module.css';
import { FieldFrame, fieldDescribedBy } from './TextField';

/**
 * A 6-digit secret entry drawn as boxes. One real input (numeric keyboard, password manager
 * friendly, screen-reader labelled) sits over the boxes; non-digits are dropped as typed.
 */
export function PinInput({
  label,
  value,
  onChange,
  length = 6,
  error,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  length?: number;
  error?: string | null;
  autoFocus?: boolean;
}) {
  const id = useId();
  const ref = useRef<HTMLInputElement>(null);
  return (
    <FieldFrame id={id} label={label} error={error} className={s.wrap}>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the boxes only forward focus to the real input */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: same */}
      <div className={s.boxes} onClick={() => ref.current?.focus()}>
        {Array.from({ length }, (_, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: boxes are positions
            key={i}
            className={`${s.box} ${i === value.length ? s.current : ''} ${error ? s.invalid : ''}`}
            aria-hidden="true"
          >
            {i < value.length ? '●' : ''}
          </span>
        ))}
        <input
          ref={ref}
          id={id}
          className={s.input}
          type="password"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          value={value}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={fieldDescribedBy(id, error)}
          onChange={(e) => onChange(e.target.value.replace(/\D+/g, '').slice(0, length))}
        />
      </div>
    </FieldFrame>
  );
}
