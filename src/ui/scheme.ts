import { useSyncExternalStore } from 'react';

/**
 * The colour scheme the tokens currently follow (prefers-color-scheme), re-rendering on a switch:
 * for what cannot read CSS variables itself (a chart's canvas) and must pick its colours again.
 */
const dark = () =>
  typeof window !== 'undefined' ? window.matchMedia?.('(prefers-color-scheme: dark)') : undefined;

export function useColourScheme(): 'light' | 'dark' {
  return useSyncExternalStore(
    (changed) => {
      const query = dark();
      query?.addEventListener('change', changed);
      return () => query?.removeEventListener('change', changed);
    },
    () => (dark()?.matches ? 'dark' : 'light'),
    () => 'light',
  );
}
