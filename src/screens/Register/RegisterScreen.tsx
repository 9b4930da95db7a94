import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { AuthLayout, authStyles as s } from '../../shell/AuthLayout';
import { PasswordField } from '../../shell/PasswordField';
import { toast } from '../../store/ui';
import { Button, IconPhone, IconTicket, TextField } from '../../ui';
import { useRegister } from './useRegister';

export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useRegister();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (await form.submit()) {
      toast('hint.reg.success', 'success');
      navigate('/login', { replace: true, state: { user: form.user } });
    }
  }

  return (
    <AuthLayout
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <>
          {t('auth.register.haveAccount')} <Link to="/login">{t('auth.login.submit')}</Link>
        </>
      }
    >
      <form className={s.form} onSubmit={onSubmit} noValidate>
        <TextField
          label={t('auth.phone')}
          value={form.user}
          onChange={form.setUser}
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder={t('auth.phonePlaceholder')}
          start={<IconPhone size={18} />}
        />
        <PasswordField
          label={t('auth.password')}
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
          placeholder={t('auth.confirmPlaceholder')}
        />
        <TextField
          label={t('auth.inviteCode')}
          value={form.code}
          onChange={form.setCode}
          autoCapitalize="characters"
          autoComplete="off"
          placeholder={t('auth.inviteCodePlaceholder')}
          start={<IconTicket size={18} />}
        />
        {form.error && (
          <p className={s.notice} role="alert">
            {t(form.error, { defaultValue: t('hint.reg.failed') })}
          </p>
        )}
        <Button type="submit" block loading={form.busy}>
          {t('auth.register.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
