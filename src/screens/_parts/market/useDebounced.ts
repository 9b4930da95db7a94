import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../../shared/rules';

/** A search text, passed on 300 ms after the last keystroke (SPEC §9). */
export function useDebounced(text: string, ms = SEARCH_DEBOUNCE_MS): string {
  const [value, setValue] = useState(text);
  useEffect(() => {
    const id = setTimeout(() => setValue(text), ms);
    return () => clearTimeout(id);
  }, [text, ms]);
  return value;
}
