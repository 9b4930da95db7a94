import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * Up/down colours (a device setting): green-up by default; red-up is the convention for Chinese
 * users. tokens.css swaps --c-up/--c-down when <html data-updown="red-up">.
 */
export type UpDown = 'green-up' | 'red-up';
export const UPDOWN_KEY = 'bourse.updown';

function apply(mode: UpDown): void {
  if (typeof document === 'undefined') return;
  if (mode === 'red-up') document.documentElement.dataset.updown = 'red-up';
  else delete document.documentElement.dataset.updown;
}

interface UpDownState {
  mode: UpDown;
  setMode(mode: UpDown): void;
}

export const useUpDown = create<UpDownState>()(
  persist(
    (set) => ({
      mode: 'green-up',
      setMode(mode) {
        apply(mode);
        set({ mode });
      },
    }),
    {
      name: UPDOWN_KEY,
      storage: createJSONStorage(() => localStorage),
      onRehydrateStorage: () => (state) => apply(state?.mode ?? 'green-up'),
    },
  ),
);

/** Sets the colours before the first paint (the store rehydrates from localStorage synchronously). */
export function applyStoredUpDown(): void {
  apply(useUpDown.getState().mode);
}
