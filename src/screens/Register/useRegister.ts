import { useState } from 'react';
import { call } from '../../api/client';
import { isTransportFailure } from '../../shared/call';
import {
  checkPassword,
  checkPasswordsMatch,
  checkPhone,
  checkRequired,
  typedPhone,
} from '../../shared/rules';

/** Registration form (SPEC §5): phone, password, confirm and invitation code, all required. */
export function useRegister() {
  const [user, setUserRaw] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(): Promise<boolean> {
    const problem =
      checkRequired(user, password, confirm, code) ??
      checkPhone(user) ??
      checkPassword(password) ??
      checkPasswordsMatch(password, confirm);
    setError(problem);
    if (problem) return false;
    setBusy(true);
    const result = await call('register', { user, password, code: code.trim() });
    setBusy(false);
    if (!result.ok) {
      setError(isTransportFailure(result.error) ? 'hint.reg.failed' : result.error);
      return false;
    }
    return true;
  }

  return {
    user,
    setUser: (v: string) => setUserRaw(typedPhone(v)),
    password,
    setPassword,
    confirm,
    setConfirm,
    code,
    setCode,
    error,
    busy,
    submit,
  };
}
