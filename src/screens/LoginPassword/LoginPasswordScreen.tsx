import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useOnline } from '../../api/connection';
import { PATHS } from '../../paths';
import { toast } from '../../store/ui';
import { Button, PageHeader, PasswordField, ui } from '../../ui';
import p from '../_parts/settings/settings.module.css';
import { useLoginPassword } from './useLoginPassword';

/** Change login password (SPEC §2/§5): current, new, confirm; other devices are signed out. */
export default function LoginPasswordScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const online = useOnline();
  const f = useLoginPassword(() => {
    toast('loginPassword.success', 'success');
    navigate(PATHS.settings, { replace: true });
  });

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void f.submit();
  }

  const err = (k: 'current' | 'next' | 'confirm') => {
    const key = f.error(k);
    return key ? t(key) : null;
  };
  return (
    <main className={ui.clearOfService}>
      <PageHeader title={t('loginPassword.title')} back={PATHS.settings} />
      <form className={ui.form} onSubmit={onSubmit} noValidate>
        <p className={p.lead}>{t('loginPassword.explain')}</p>
        <PasswordField
          label={t('loginPassword.current')}
          value={f.form.current}
          onChange={(v) => f.set('current', v)}
          onBlur={() => f.blur('current')}
          error={err('current')}
          autoComplete="current-password"
        />
        <PasswordField
          label={t('loginPassword.new')}
          value={f.form.next}
          onChange={(v) => f.set('next', v)}
          onBlur={() => f.blur('next')}
          error={err('next')}
          hint={t('loginPassword.newHint')}
          autoComplete="new-password"
        />
        <PasswordField
          label={t('loginPassword.confirm')}
          value={f.form.confirm}
          onChange={(v) => f.set('confirm', v)}
          onBlur={() => f.blur('confirm')}
          error={err('confirm')}
          autoComplete="new-password"
        />
        {f.serverError && (
          <p className={ui.formError} role="alert">
            {t(f.serverError)}
          </p>
        )}
        <Button type="submit" block loading={f.busy} disabled={!online} unready={!f.canSave}>
          {t('loginPassword.save')}
        </Button>
        {!online && <p className={ui.centredNote}>{t('profile.offlineSave')}</p>}
      </form>
    </main>
  );
}
