import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { deviceId } from '../../auth/device';
import { recallPassword, remember, remembered } from '../../auth/remember';
import { isTransportFailure } from '../../shared/call';
import type { LoginAnswer, PendingStep } from '../../shared/contract/account';
import { checkPassword, checkPhone, checkRequired, typedPhone } from '../../shared/rules';
import { useSession } from '../../store/session';

/**
 * Login form state and submit (SPEC §5 login rules, §8 login errors). With two factors due the
 * server's answer is a step (`step`): the screen asks for the second factor, or for a first one
 * to be set up, and `finish` signs in with the full session that answers it.
 */
export function useLogin(initialUser?: string) {
  const [user, setUserRaw] = useState(initialUser ?? remembered()?.user ?? '');
  const [password, setPassword] = useState('');
  const [keepPassword, setKeepPassword] = useState(() => Boolean(remembered()?.secret));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<PendingStep | null>(null);
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

  /** The session is open (SPEC's answer, or the one the second step answered). */
  async function finish(answer: LoginAnswer): Promise<void> {
    await remember(user, keepPassword ? password : undefined);
    setStep(null);
    signIn(answer);
  }

  /** 'done': signed in; 'step': a second factor is due (`step`); false: refused (`error`). */
  async function submit(): Promise<'done' | 'step' | false> {
    // SPEC §5: the password's minimum length is checked here, before any call.
    const problem = checkRequired(user, password) ?? checkPhone(user) ?? checkPassword(password);
    setError(problem);
    if (problem) return false;
    setBusy(true);
    const result = await call('login', { user, password, device: deviceId() });
    if (!result.ok) {
      setBusy(false);
      setError(isTransportFailure(result.error) ? 'hint.loginFailed' : result.error);
      return false;
    }
    if (result.data.second) {
      // The step's code (a chunk of its own) arrives while the button still says it is busy.
      const loaded = await import('./SecondStep').then(
        () => true,
        () => false,
      );
      setBusy(false);
      if (!loaded) {
        // Nothing half-open: the step's session ends, and the form says to try again.
        void call('logout', {}, { token: result.data.token });
        setError('hint.loginFailed');
        return false;
      }
      setStep(result.data as PendingStep);
      return 'step';
    }
    setBusy(false);
    await finish(result.data);
    return 'done';
  }

  /** Back to the password: the step's session ends on the server too. */
  function cancelStep(): void {
    if (step) void call('logout', {}, { token: step.token });
    setStep(null);
    setPassword('');
  }

  return {
    user,
    setUser,
    password,
    setPassword,
    keepPassword,
    setKeepPassword,
    error,
    busy,
    submit,
    step,
    finish,
    cancelStep,
  };
}
