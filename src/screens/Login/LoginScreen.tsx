import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { AuthLayout, authStyles as s } from '../../shell/AuthLayout';
import { PasswordField } from '../../shell/PasswordField';
import { Button, IconPhone, TextField } from '../../ui';
import { useLogin } from './useLogin';

export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const prefill = (location.state as { user?: string } | null)?.user;
  const form = useLogin(prefill);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (await form.submit()) {
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== '/login' ? from : '/', { replace: true });
    }
  }

  return (
    <AuthLayout
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <>
          {t('auth.login.noAccount')} <Link to="/register">{t('auth.register.title')}</Link>
        </>
      }
    >
      <form className={s.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t('auth.phone')}
          value={form.user}
          onChange={form.setUser}
          inputMode="numeric"
          autoComplete="username"
          placeholder={t('auth.phonePlaceholder')}
          start={<IconPhone size={18} />}
        />
        <PasswordField
          label={t('auth.password')}
          value={form.password}
          onChange={form.setPassword}
          autoComplete="current-password"
          placeholder={t('auth.passwordPlaceholder')}
        />
        {form.error && (
          <p className={s.notice} role="alert">
            {t(form.error, { defaultValue: t('hint.loginFailed') })}
          </p>
        )}
        <div className={s.row}>
          <label className={s.check}>
            <input
              type="checkbox"
              checked={form.keepPassword}
              onChange={(e) => form.setKeepPassword(e.target.checked)}
            />
            {t('auth.login.rememberPassword')}
          </label>
          <Link to="/forgot-password">{t('auth.forgot.link')}</Link>
        </div>
        <Button type="submit" block loading={form.busy}>
          {t('auth.login.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
