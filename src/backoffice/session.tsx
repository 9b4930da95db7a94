import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import type { Me } from '../shared/backoffice';
import { call, session } from './api';

/**
 * Who is signed in (`me`), read from the server at start and after each sign-in step. The server
 * decides everything; this only picks which screen to show (sign-in, enrolment, the back office).
 */
interface SessionState {
  me: Me | null;
  /** Still asking the server. */
  checking: boolean;
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null>(null);
  const [checking, setChecking] = useState(session.token() !== null);

  const refresh = useCallback(async () => {
    if (!session.token()) {
      setMe(null);
      setChecking(false);
      return;
    }
    const r = await call('me');
    setMe(r.ok ? r.data : null);
    setChecking(false);
  }, []);

  const signOut = useCallback(async () => {
    await call('logout');
    session.clear();
  }, []);

  useEffect(() => {
    void refresh();
    return session.onSignedOut(() => setMe(null));
  }, [refresh]);

  return (
    <SessionContext.Provider value={{ me, checking, refresh, signOut }}>{children}</SessionContext.Provider>
  );
}

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/** The signed-in member (inside the back office's pages, where one always is). */
export function useMe(): Me {
  const { me } = useSession();
  if (!me) throw new Error('no member signed in');
  return me;
}
