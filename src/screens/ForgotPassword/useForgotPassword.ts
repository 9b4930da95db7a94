import { useEffect, useState } from 'react';
import { call } from '../../api/client';
import { recallPassword, remembered } from '../../auth/remember';
import { isTransportFailure } from '../../shared/contract/define';
import { checkPassword, checkPasswordsMatch, checkPhone, checkRequired } from '../../shared/rules';

/**
 * Forgot password (SPEC §5): works from the login remembered on this device; without one the
 * screen says so and returns to login.
 */
export function useForgotPassword() {
  const saved = remembered();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const user = saved?.user ?? '';

  // SPEC §5: the old password comes from the remembered credentials when the user kept it.
  useEffect(() => {
    let live = true;
    recallPassword().then((kept) => {
      if (live && kept) setOldPassword((typed) => typed || kept);
    });
    return () => {
      live = false;
    };
  }, []);

  async function submit(): Promise<boolean> {
    const problem =
      (checkRequired(user, oldPassword, password, confirm) && 'hint.completeAllFields') ??
      (checkPhone(user) && 'hint.phoneMustBe10') ??
      checkPassword(password) ??
      checkPasswordsMatch(password, confirm);
    setError(problem);
    if (problem) return false;
    setBusy(true);
    const result = await call('forget', { user, password: oldPassword, new_password: password });
    setBusy(false);
    if (!result.ok) {
      setError(isTransportFailure(result.error) ? 'hint.resetFailed' : result.error);
      return false;
    }
    return true;
  }

  return {
    hasLogin: saved !== null,
    user,
    oldPassword,
    setOldPassword,
    password,
    setPassword,
    confirm,
    setConfirm,
    error,
    busy,
    submit,
  };
}
