import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { PATHS } from '../../paths';
import { REDIRECT_DELAY_MS } from '../../shared/rules';
import {
  AuthError,
  AuthLayout,
  NewPasswordFields,
  PhoneField,
  authStyles as s,
} from '../../shell/AuthLayout';
import { toast } from '../../store/ui';
import { Button, PasswordField, TextField } from '../../ui';
import ps from '../_parts/security/security.module.css';
import { useForgotPassword } from './useForgotPassword';

export default function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForgotPassword();
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (form.hasLogin && !done && !form.lost) return;
    const timer = setTimeout(() => navigate(PATHS.login, { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form.hasLogin, form.lost, done, navigate]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (await form.submit()) {
      toast('hint.resetSuccess', 'success');
      setDone(true);
    }
  }

  return (
    <AuthLayout
      title={t('auth.forgot.title')}
      subtitle={t('auth.forgot.subtitle')}
      footer={<Link to={PATHS.login}>{t('auth.forgot.backToLogin')}</Link>}
    >
      {!form.hasLogin ? (
        <p className={`${s.notice} ${s.noticeSpaced}`} role="alert">
          {t('hint.noLoginInfo')}
        </p>
      ) : (
        <form className={s.form} onSubmit={onSubmit} noValidate>
          <PhoneField value={form.user} />
          <PasswordField
            label={t('auth.oldPassword')}
            value={form.oldPassword}
            onChange={form.setOldPassword}
            autoComplete="current-password"
          />
          <NewPasswordFields
            label={t('auth.newPassword')}
            password={form.password}
            confirm={form.confirm}
            onPassword={form.setPassword}
            onConfirm={form.setConfirm}
          />
          {form.factor && (
            <div className={ps.code}>
              {form.factor === 'totp' ? (
                <TextField
                  label={t('auth.second.codeLabel')}
                  hint={t('auth.second.codeHint')}
                  value={form.code}
                  onChange={form.setCode}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]*"
                  placeholder="123456"
                />
              ) : (
                <TextField
                  label={t('auth.second.recoveryLabel')}
                  value={form.code}
                  onChange={form.setCode}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  placeholder="xxxxx-xxxxx"
                />
              )}
            </div>
          )}
          <AuthError error={form.error} fallback="hint.resetFailed" />
          <Button type="submit" block loading={form.busy} disabled={done}>
            {t('auth.forgot.submit')}
          </Button>
          {form.factor && (
            <button type="button" className={ps.linkButton} onClick={form.switchFactor}>
              {form.factor === 'recovery' ? t('auth.forgot.useApp') : t('auth.second.useRecovery')}
            </button>
          )}
        </form>
      )}
    </AuthLayout>
  );
}
