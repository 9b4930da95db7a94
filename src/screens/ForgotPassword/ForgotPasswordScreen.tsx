import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { REDIRECT_DELAY_MS } from '../../shared/rules';
import { AuthLayout, authStyles as s } from '../../shell/AuthLayout';
import { PasswordField } from '../../shell/PasswordField';
import { toast } from '../../store/ui';
import { Button, IconPhone, TextField } from '../../ui';
import { useForgotPassword } from './useForgotPassword';

export default function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForgotPassword();
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (form.hasLogin && !done) return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form.hasLogin, done, navigate]);

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
      footer={<Link to="/login">{t('auth.forgot.backToLogin')}</Link>}
    >
      {!form.hasLogin ? (
        <p className={s.notice} role="alert" style={{ marginTop: 24 }}>
          {t('hint.noLoginInfo')}
        </p>
      ) : (
        <form className={s.form} onSubmit={onSubmit} noValidate>
          <TextField
            label={t('auth.phone')}
            value={form.user}
            onChange={() => {}}
            readOnly
            start={<IconPhone size={18} />}
          />
          <PasswordField
            label={t('auth.oldPassword')}
            value={form.oldPassword}
            onChange={form.setOldPassword}
            autoComplete="current-password"
          />
          <PasswordField
            label={t('auth.newPassword')}
            value={form.password}
            onChange={form.setPassword}
            autoComplete="new-password"
            placeholder={t('auth.newPasswordPlaceholder')}
          />
          <PasswordField
            label={t('auth.confirmPassword')}
            value={form.confirm}
            onChange={form.setConfirm}
            autoComplete="new-password"
          />
          {form.error && (
            <p className={s.notice} role="alert">
              {t(form.error, { defaultValue: t('hint.resetFailed') })}
            </p>
          )}
          <Button type="submit" block loading={form.busy} disabled={done}>
            {t('auth.forgot.submit')}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
