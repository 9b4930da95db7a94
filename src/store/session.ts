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
  signIn(answer: LoginAnswer): void;
  clear(): void;
}

export const SESSION_KEY = 'bourse.session';

export const useSession = create<SessionState>()(
  persist(
    (set) => ({
      token: null,
      userInfo: null,
      signIn: (a) => set({ token: a.token, userInfo: { id: a.id, user: a.user, login: a.login } }),
      clear: () => set({ token: null, userInfo: null }),
    }),
    {
      name: SESSION_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ token: s.token, userInfo: s.userInfo }),
    },
  ),
);

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === SESSION_KEY) void useSession.persist.rehydrate();
  });
}
