import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { LoginAnswer } from '../shared/contract/account';

/**
 * The session (SPEC §3): the token and who is signed in, kept in localStorage so a reload stays
 * signed in. Clearing it is what "logged out" means; other tabs follow through the storage event.
 */
interface SessionUser {
  id: number;
  user: string;
  login: number;
}

interface SessionState {
  token: string | null;
  userInfo: SessionUser | null;
  /**
   * This page has held a session (restored at load or signed in since). When it ends, login leads
   * home, not back to the screen: another person may sign in next. Not kept across loads.
   */
  held: boolean;
  signIn(answer: LoginAnswer): void;
  clear(): void;
}

export const SESSION_KEY = 'bourse.session';

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      token: null,
      userInfo: null,
      held: false,
      signIn: (a) =>
        set({ token: a.token, userInfo: { id: a.id, user: a.user, login: a.login }, held: true }),
      clear: () => set({ token: null, userInfo: null }),
    }),
    {
      name: SESSION_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ token: s.token, userInfo: s.userInfo }),
      // Decided when the kept token is read, before any answer can end it: a token the server has
      // already ended still counts (a 401 at startup raced the shell's first render and returned the
      // next person to the previous one's screen).
      merge: (kept, current) => {
        const k = (kept ?? {}) as Partial<SessionState>;
        return { ...current, ...k, held: current.held || Boolean(k.token) };
      },
    },
  ),
);

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === SESSION_KEY) void useSession.persist.rehydrate();
  });
}
