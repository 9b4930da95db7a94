import { useState } from 'react';
import { call } from '../../api/client';
import { remembered } from '../../auth/remember';
import { isTransportFailure } from '../../shared/call';
import { checkPassword, checkPasswordsMatch, checkPhone, checkRequired } from '../../shared/rules';

/**
 * Forgot password (SPEC §5): works from the phone number remembered on this device (the user types
 * the current password); without one the screen says so and returns to login.
 */
export function useForgotPassword() {
  const saved = remembered();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [lost, setLost] = useState(false);
  const user = saved?.user ?? '';

  // SPEC §5 took the old password from the remembered credentials; it is never filled by itself
  // (issue 12, hole 8): whoever holds an unlocked device must not reset a password they do not know.

  async function submit(): Promise<boolean> {
    // The remembered login can go while the form is open (logout or a wipe in another tab):
    // SPEC §8's reset message, then back to login like a missing one.
    if (remembered()?.user !== user) {
      setError('hint.noLoginData');
      setLost(true);
      return false;
    }
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
    /** The remembered login was gone at submit: the screen returns to login. */
    lost,
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
