import { type FormEvent, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PATHS } from '../../paths';
import { AuthError, AuthLayout, PhoneField, authStyles as s } from '../../shell/AuthLayout';
import { toast } from '../../store/ui';
// The kit's files, not its index: the index brings every part of the kit (and its stylesheets),
// which the sign-in screen does not show.
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { useLogin } from './useLogin';

// The second step loads only for a sign-in that needs it (useLogin waits for it before showing it),
// so the login screen's first paint carries none of the factors' code.
const SecondStep = lazy(() => import('./SecondStep').then((m) => ({ default: m.SecondStep })));
const EnrolStep = lazy(() => import('./SecondStep').then((m) => ({ default: m.EnrolStep })));

export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const prefill = (location.state as { user?: string } | null)?.user;
  const form = useLogin(prefill);

  function signedIn() {
    toast('hint.loginSuccess', 'success');
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from !== PATHS.login ? from : PATHS.home, { replace: true });
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if ((await form.submit()) === 'done') signedIn();
  }

  // Two factors due: the password opened only a step.
  if (form.step) {
    const Step = form.step.second.stage === 'enrol' ? EnrolStep : SecondStep;
    return (
      <Suspense fallback={null}>
        <Step
          step={form.step}
          onSignedIn={async (answer) => {
            await form.finish(answer);
            signedIn();
          }}
          onCancel={form.cancelStep}
        />
      </Suspense>
    );
  }

  return (
    <AuthLayout
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      footer={
        <>
          {t('auth.login.noAccount')} <Link to={PATHS.register}>{t('auth.register.title')}</Link>
        </>
      }
    >
      <form className={s.form} onSubmit={onSubmit} noValidate>
        <PhoneField value={form.user} onChange={form.setUser} autoComplete="username" />
        <PasswordField
          label={t('auth.password')}
          value={form.password}
          onChange={form.setPassword}
          autoComplete="current-password"
          placeholder={t('auth.passwordPlaceholder')}
        />
        <AuthError error={form.error} fallback="hint.loginFailed" />
        <div className={s.row}>
          <label className={s.check}>
            <input
              type="checkbox"
              checked={form.keepPassword}
              onChange={(e) => form.setKeepPassword(e.target.checked)}
            />
            {t('auth.login.rememberPassword')}
          </label>
          <Link to={PATHS.forgotPassword}>{t('auth.forgot.link')}</Link>
        </div>
        <Button type="submit" block loading={form.busy}>
          {t('auth.login.submit')}
        </Button>
      </form>
    </AuthLayout>
  );
}
