import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { worker } from '../api/client';
import { useWatch } from '../api/hooks';
import { useConfig } from '../api/useConfig';
import { POLL_MS } from '../shared/rules';
import { useSession } from '../store/session';
import { useUi } from '../store/ui';
import { IconService } from '../ui/icons';
import s from './core.module.css';

/**
 * The floating customer-service button with its unread badge, on every signed-in route that does
 * not hide it (routes.tsx `noService`), when the customer-service flag is on.
 */
export function ServiceButton({ raised = false }: { raised?: boolean }) {
  const { t } = useTranslation();
  const { customerService } = useConfig();
  const signedIn = useSession((st) => st.token !== null);
  const dialogs = useUi((u) => u.dialogs);
  const on = customerService && signedIn;
  const unread = useWatch('unreadCount', on ? {} : null, POLL_MS.unreadCount);

  useEffect(() => {
    // SPEC §4: messages load at start; a failure is ignored, a fresh cache is not refetched.
    if (on) void worker().prefetchMessages();
  }, [on]);

  if (!on || dialogs > 0) return null;
  const count = unread.data?.unread_count ?? 0;
  const label =
    count > 0 ? `${t('core.service.open')}, ${t('core.service.unread', { count })}` : t('core.service.open');
  return (
    <Link
      to="/customer-service"
      className={`${s.service} ${raised ? s.raised : ''}`}
      aria-label={label}
      title={t('core.service.open')}
    >
      <IconService size={24} />
      {count > 0 && (
        <span className={s.serviceBadge} aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
