import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Whether the user has typed into a form on this screen and not submitted it: the update prompt
 * waits until they are done, so a reload can never throw away what they typed.
 */
let dirty = false;
const listeners = new Set<() => void>();
const set = (next: boolean) => {
  if (dirty === next) return;
  dirty = next;
  for (const l of listeners) l();
};

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  document.addEventListener(
    'input',
    (e) => {
      if ((e.target as Element | null)?.closest?.('form')) set(true);
    },
    true,
  );
  document.addEventListener('submit', () => set(false), true);
}

function subscribe(onChange: () => void): () => void {
  install();
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/** True while a form on the current screen holds unsubmitted input; a new screen starts clean. */
export function useFormDirty(): boolean {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new screen (pathname) starts clean
  useEffect(() => {
    set(false);
  }, [pathname]);
  return useSyncExternalStore(
    subscribe,
    () => dirty,
    () => false,
  );
}
