import { useTranslation } from 'react-i18next';
import { useWatch } from '../api/hooks';
import { POLL_MS } from '../shared/rules';
import { useUi } from '../store/ui';
import { IconService } from '../ui/icons';
import ui from '../ui/ui.module.css';
import s from './core.module.css';
import { ServiceLink, useCustomerService } from './service';

/** The unread count of the chat (one poll, shared), and the name a link to it carries. */
function useServiceLabel(on: boolean): { count: number; label: string } {
  const { t } = useTranslation();
  const unread = useWatch('unreadCount', on ? {} : null, POLL_MS.unreadCount);
  const count = unread.data?.unread_count ?? 0;
  // The visible words first (WCAG 2.5.3, label in name), the count after them.
  const label =
    count > 0 ? `${t('core.service.open')}, ${t('core.service.unread', { count })}` : t('core.service.open');
  return { count, label };
}

function Badge({ count, className }: { count: number; className: string | undefined }) {
  if (count <= 0) return null;
  return (
    <span className={`${ui.countBadge} ${className}`} aria-hidden="true">
      {count > 99 ? '99+' : count}
    </span>
  );
}

/**
 * The floating customer-service button with its unread badge, on every signed-in route that does
 * not hide it (routes.tsx `noService`) and has no bottom navigation, when the customer-service flag
 * is on; it goes where `kefu` says (service.tsx). It floats on a bar of its own across the bottom
 * of the screen, and the page leaves that bar's height free after its end: the button never sits
 * over a row, a price or a control. Screens with the bottom navigation show
 * `ServiceHeaderLink` in their header instead, so support shows once per screen.
 */
export function ServiceButton() {
  const { t } = useTranslation();
  const { on, target } = useCustomerService();
  const dialogs = useUi((u) => u.dialogs);
  const { count, label } = useServiceLabel(on);

  if (!on) return null;
  // The room in the page's flow, as tall as the bar: the end of every screen scrolls clear of it.
  const room = <div className={s.serviceRoom} aria-hidden="true" />;
  // The room stays while a dialog hides the bar: the page under the dialog does not move.
  if (dialogs > 0) return room;
  return (
    <>
      {room}
      <div className={s.serviceBar} data-service-bar="" data-bottom-bar="">
        <ServiceLink target={target} className={s.service} label={label} data-service-button="">
          <IconService size={20} />
          <span>{t('core.service.open')}</span>
          <Badge count={count} className={s.serviceBadge} />
        </ServiceLink>
      </div>
    </>
  );
}

/** Customer service as a header icon (Home, Account: the screens with the bottom navigation). */
export function ServiceHeaderLink() {
  const { on, target } = useCustomerService();
  const { count, label } = useServiceLabel(on);
  if (!on) return null;
  return (
    <ServiceLink target={target} className={ui.iconButton} label={label}>
      <IconService />
      <Badge count={count} className={ui.badge} />
    </ServiceLink>
  );
}
