import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { recallPassword, remember, remembered } from '../../auth/remember';
import { isTransportFailure } from '../../shared/call';
import { checkPassword, checkPhone, checkRequired, typedPhone } from '../../shared/rules';
import { useSession } from '../../store/session';

/** Login form state and submit (SPEC §5 login rules, §8 login errors). */
export function useLogin(initialUser?: string) {
  const [user, setUserRaw] = useState(initialUser ?? remembered()?.user ?? '');
  const [password, setPassword] = useState('');
  const [keepPassword, setKeepPassword] = useState(() => Boolean(remembered()?.secret));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const signIn = useSession((st) => st.signIn);

  const setUser = (value: string) => setUserRaw(typedPhone(value));

  // A password remembered on this device fills the form, unless another user's phone was passed in.
  useEffect(() => {
    const saved = remembered();
    if (!saved?.secret || (initialUser && initialUser !== saved.user)) return;
    let live = true;
    recallPassword().then((kept) => {
      if (live && kept) setPassword((typed) => typed || kept);
    });
    return () => {
      live = false;
    };
  }, [initialUser]);

  async function submit(): Promise<boolean> {
    // SPEC §5: the password's minimum length is checked here, before any call.
    const problem = checkRequired(user, password) ?? checkPhone(user) ?? checkPassword(password);
    setError(problem);
    if (problem) return false;
    setBusy(true);
    const result = await call('login', { user, password });
    setBusy(false);
    if (!result.ok) {
      setError(isTransportFailure(result.error) ? 'hint.loginFailed' : result.error);
      return false;
    }
    await remember(user, keepPassword ? password : undefined);
    signIn(result.data);
    return true;
  }

  return { user, setUser, password, setPassword, keepPassword, setKeepPassword, error, busy, submit };
}
