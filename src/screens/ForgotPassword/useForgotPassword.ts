import { useState } from 'react';
import { call } from '../../api/client';
import { deviceId } from '../../auth/device';
import { remembered } from '../../auth/remember';
import { isTransportFailure } from '../../shared/call';
import { checkPassword, checkPasswordsMatch, checkPhone, checkRequired } from '../../shared/rules';

/** The server's answer when the account has a second factor and none was given. */
const NEEDS_FACTOR = 'errors.resetNeedsFactor';

/**
 * Forgot password (SPEC §5): works from the phone number remembered on this device (the user types
 * the current password); without one the screen says so and returns to login. An account with a
 * second factor also gives its authenticator code or a recovery code: the field shows
 * once the server asks for it.
 */
export function useForgotPassword() {
  const saved = remembered();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [lost, setLost] = useState(false);
  /** Which second factor the form asks for: none until the server says the account has one. */
  const [factor, setFactor] = useState<'totp' | 'recovery' | null>(null);
  const [code, setCode] = useState('');
  const user = saved?.user ?? '';

  // SPEC §5 took the old password from the remembered credentials; it is never filled by itself
  // (hole 8): whoever holds an unlocked device must not reset a password they do not know.

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
    const factorProblem =
      factor === 'totp' && code.length !== 6
        ? 'errors.codeFormat'
        : factor === 'recovery' && !code.trim()
          ? 'errors.recoveryFormat'
          : null;
    setError(problem ?? factorProblem);
    if (problem || factorProblem) return false;
    setBusy(true);
    const proof = factor === 'totp' ? { code } : factor === 'recovery' ? { recovery: code.trim() } : {};
    const result = await call('forget', {
      user,
      password: oldPassword,
      new_password: password,
      device: deviceId(),
      ...proof,
    });
    setBusy(false);
    if (!result.ok) {
      if (result.error === NEEDS_FACTOR && factor === null) setFactor('totp');
      else if (factor !== null && !isTransportFailure(result.error)) setCode('');
      setError(isTransportFailure(result.error) ? 'hint.resetFailed' : result.error);
      return false;
    }
    return true;
  }

  /** Between the app's code and a recovery code. */
  function switchFactor(): void {
    setFactor(factor === 'recovery' ? 'totp' : 'recovery');
    setCode('');
    setError(null);
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
    factor,
    code,
    /** As typed: an app's code keeps its digits only. */
    setCode: (v: string) => setCode(factor === 'totp' ? v.replace(/\D+/g, '').slice(0, 6) : v),
    switchFactor,
  };
}
