import { useTranslation } from 'react-i18next';
import { useWatch } from '../api/hooks';
import { POLL_MS } from '../shared/rules';
import { useUi } from '../store/ui';
import { IconService } from '../ui/icons';
import ui from '../ui/ui.module.css';
import s from './core.module.css';
import { ServiceLink, useCustomerService } from './service';

/**
 * The floating customer-service button with its unread badge, on every signed-in route that does
 * not hide it (routes.tsx `noService`), when the customer-service flag is on; it goes where `kefu`
 * says (service.tsx). Screens leave room for it: an empty strip after the screen as tall as the
 * button's corner, so the end of every list (its last row, "Next", "Load more") scrolls clear of it.
 */
export function ServiceButton({ raised = false }: { raised?: boolean }) {
  const { t } = useTranslation();
  const { on, target } = useCustomerService();
  const dialogs = useUi((u) => u.dialogs);
  const unread = useWatch('unreadCount', on ? {} : null, POLL_MS.unreadCount);

  if (!on) return null;
  const room = <div className={`${s.serviceRoom} ${raised ? s.raised : ''}`} aria-hidden="true" />;
  // The room stays while a dialog hides the button: the page under the dialog does not move.
  if (dialogs > 0) return room;
  const count = unread.data?.unread_count ?? 0;
  const label =
    count > 0 ? `${t('core.service.open')}, ${t('core.service.unread', { count })}` : t('core.service.open');
  return (
    <>
      {room}
      <ServiceLink
        target={target}
        className={`${s.service} ${raised ? s.raised : ''}`}
        label={label}
        title={t('core.service.open')}
      >
        <IconService size={24} />
        {count > 0 && (
          <span className={`${ui.countBadge} ${s.serviceBadge}`} aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </ServiceLink>
    </>
  );
}
