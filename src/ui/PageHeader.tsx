import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { PATHS } from '../paths';
import { IconButton } from './Button';
import { IconBack } from './icons';
import s from './ui.module.css';

/** Sticky title bar with a back button (history, or `back` when there is none) and actions. */
export function PageHeader({
  title,
  back = PATHS.home,
  actions,
  noBack,
}: {
  title: ReactNode;
  back?: string;
  actions?: ReactNode;
  noBack?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <header className={s.header}>
      <div>
        {!noBack && (
          <IconButton
            label={t('common.back')}
            onClick={() => (window.history.state?.idx > 0 ? navigate(-1) : navigate(back, { replace: true }))}
          >
            <IconBack />
          </IconButton>
        )}
      </div>
      <h1 className={s.headerTitle}>{title}</h1>
      <div className={s.headerActions}>{actions}</div>
    </header>
  );
}

/** A text link among a header's actions (a screen's orders or records, the positions of a list). */
export function HeaderLink({ to, label }: { to: string; label: string }) {
  return (
    <Link to={to} className={s.headerLink}>
      {label}
    </Link>
  );
}
