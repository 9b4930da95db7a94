import type { ReactNode } from 'react';
import { Button } from './Button';
import { IconSearch } from './icons';
import { TextField } from './TextField';
import s from './ui.module.css';

/**
 * The code search above a list (forex, futures, treasury debt, block trading / QIP): a search
 * field for instrument codes (capitals, no autofill, the keyboard's search key) whose Enter, or
 * the `button` beside it when there is one, calls `onSubmit`. What a search does (at once, or
 * after a pause as typed) is the screen's.
 */
export function CodeSearch({
  label,
  placeholder,
  value,
  onChange,
  onSubmit,
  button,
  className,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  /** The submit button's label; without it only Enter searches. */
  button?: ReactNode;
  /** Beside the kit's row: where it sits (padding). */
  className?: string;
}) {
  return (
    <search>
      <form
        className={className ? `${s.searchForm} ${className}` : s.searchForm}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <TextField
          label={label}
          type="search"
          value={value}
          onChange={onChange}
          placeholder={placeholder}
          autoComplete="off"
          autoCapitalize="characters"
          enterKeyHint="search"
          start={<IconSearch size={18} />}
        />
        {button && (
          <Button type="submit" variant="secondary">
            {button}
          </Button>
        )}
      </form>
    </search>
  );
}
