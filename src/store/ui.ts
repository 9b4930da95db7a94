import { create } from 'zustand';

/**
 * UI-only state shared across the shell: open dialogs (bottom nav hides while any is open), money
 * actions on screen (the update prompt waits while any is) and toasts.
 */
export interface Toast {
  id: number;
  /** i18n key, or already translated text when `raw`. */
  text: string;
  params?: Record<string, unknown>;
  /** A second, smaller line: an i18n key (e.g. the transport reason under a screen's failure text). */
  detail?: string;
  tone: 'info' | 'success' | 'error';
}

interface UiState {
  dialogs: number;
  /** MoneyButtons on screen: a money screen, where a reload could lose what the user is doing. */
  moneyActions: number;
  toasts: Toast[];
  /**
   * A money call was refused for want of an approved real-name verification (errors.kycRequired,
   * REQUIRE_KYC): the shell explains it with a link to Real-name (shell/IdentityNeeded.tsx).
   */
  identityNeeded: boolean;
  setIdentityNeeded(needed: boolean): void;
  openDialog(): void;
  closeDialog(): void;
  moneyShown(): void;
  moneyGone(): void;
  toast(text: string, tone?: Toast['tone'], params?: Record<string, unknown>, detail?: string): void;
  dismiss(id: number): void;
}

let nextToast = 1;

export const useUi = create<UiState>()((set) => ({
  dialogs: 0,
  moneyActions: 0,
  toasts: [],
  identityNeeded: false,
  setIdentityNeeded: (needed) => set({ identityNeeded: needed }),
  openDialog: () => set((s) => ({ dialogs: s.dialogs + 1 })),
  closeDialog: () => set((s) => ({ dialogs: Math.max(0, s.dialogs - 1) })),
  moneyShown: () => set((s) => ({ moneyActions: s.moneyActions + 1 })),
  moneyGone: () => set((s) => ({ moneyActions: Math.max(0, s.moneyActions - 1) })),
  toast(text, tone = 'info', params, detail) {
    const id = nextToast++;
    const next: Toast = { id, text, tone, params, ...(detail ? { detail } : {}) };
    // The same words again (two edits queued offline, say) replace the toast on screen, not stack.
    const same = (t: Toast) => JSON.stringify({ ...t, id: 0 }) === JSON.stringify({ ...next, id: 0 });
    set((s) => ({ toasts: [...s.toasts.filter((t) => !same(t)).slice(-2), next] }));
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));

export const toast = (
  text: string,
  tone?: Toast['tone'],
  params?: Record<string, unknown>,
  detail?: string,
) => useUi.getState().toast(text, tone, params, detail);
