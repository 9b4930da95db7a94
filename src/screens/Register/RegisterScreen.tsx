import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { PATHS } from '../../paths';
import {
  AuthError,
  AuthLayout,
  NewPasswordFields,
  PhoneField,
  authStyles as s,
} from '../../shell/AuthLayout';
import { toast } from '../../store/ui';
import { Button, IconTicket, TextField } from '../../ui';
import { useRegister } from './useRegister';

export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useRegister();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (await form.submit()) {
      toast('hint.reg.success', 'success');
      navigate(PATHS.login, { replace: true, state: { user: form.user } });
    }
  }

  return (
    <AuthLayout
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <>
          {t('auth.register.haveAccount')} <Link to={PATHS.login}>{t('auth.login.submit')}</Link>
        </>
      }
    >
      <form className={s.form} onSubmit={onSubmit} noValidate>
        <PhoneField value={form.user} onChange={form.setUser} autoComplete="tel-national" />
        <NewPasswordFields
          label={t('auth.password')}
          password={form.password}
          confirm={form.confirm}
          onPassword={form.setPassword}
          onConfirm={form.setConfirm}
          confirmPlaceholder={t('auth.confirmPlaceholder')}
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
        <AuthError error={form.error} fallback="hint.reg.failed" />
        <Button type="submit" block loading={form.busy}>
          {t('auth.register.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
