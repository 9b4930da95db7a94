import { useState } from 'react';
import { call } from '../../api/client';
import { isTransportFailure } from '../../shared/call';
import { checkPassword, checkPasswordsMatch } from '../../shared/rules';
import { withStepUp } from '../../shell/stepUp';

export interface LoginPasswordForm {
  current: string;
  next: string;
  confirm: string;
}

export type LoginPasswordErrors = Partial<Record<keyof LoginPasswordForm, string>>;

/** SPEC §5 "Change login password", each field's first problem as an i18n key. */
export function checkLoginPasswordForm(f: LoginPasswordForm): LoginPasswordErrors {
  const errors: LoginPasswordErrors = {};
  if (f.current === '') errors.current = 'loginPassword.currentRequired';
  if (f.next === '') errors.next = 'loginPassword.newRequired';
  else {
    const short = checkPassword(f.next);
    if (short) errors.next = short;
  }
  if (f.confirm === '') errors.confirm = 'tradePassword.confirmRequired';
  else {
    const mismatch = checkPasswordsMatch(f.next, f.confirm);
    if (mismatch) errors.confirm = mismatch;
  }
  return errors;
}

/** SPEC: save is enabled only when all three are filled and the new one equals its confirmation. */
export function canSaveLoginPassword(f: LoginPasswordForm): boolean {
  return f.current !== '' && f.next !== '' && f.confirm !== '' && f.next === f.confirm;
}

/**
 * The change-login-password form. The server ends every other session of the user on success
 * (this device stays signed in); a wrong current password counts against the login limit.
 */
export function useLoginPassword(onDone: () => void) {
  const [form, setForm] = useState<LoginPasswordForm>({ current: '', next: '', confirm: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof LoginPasswordForm, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = checkLoginPasswordForm(form);
  const shown = (k: keyof LoginPasswordForm) => ((submitted || touched[k]) && errors[k]) || null;

  function set(k: keyof LoginPasswordForm, value: string) {
    setForm((f) => ({ ...f, [k]: value }));
    setServerError(null);
  }

  async function submit(): Promise<void> {
    setSubmitted(true);
    if (Object.keys(errors).length) return;
    setBusy(true);
    const result = await withStepUp(() =>
      call('passwordUp', { password: form.current, password_new: form.next }),
    );
    setBusy(false);
    if (!result.ok) {
      setServerError(isTransportFailure(result.error) ? 'loginPassword.failed' : result.error);
      return;
    }
    onDone();
  }

  return {
    form,
    set,
    blur: (k: keyof LoginPasswordForm) => setTouched((t) => ({ ...t, [k]: true })),
    error: shown,
    serverError,
    canSave: canSaveLoginPassword(form),
    busy,
    submit,
  };
}
