import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { call } from '../api/client';
import { useWatch } from '../api/hooks';
import { PATHS } from '../paths';
import { inboxKeys, inboxText } from '../screens/_parts/watchlist/inbox';
import { alertNotificationData, showSystemNotification } from '../screens/_parts/watchlist/notify';
import { POLL_MS } from '../shared/rules';
import { useSession } from '../store/session';
import { toast } from '../store/ui';
import { IconBell } from '../ui/icons';
import ui from '../ui/ui.module.css';
import { inboxSeen, resetInboxWatcher } from './inboxSeen';
import { setAppBadge, storedDeviceId } from './pushDevice';

export { resetInboxWatcher };

/**
 * Fired price alerts while the app is open: the inbox's unread count is polled (one shared poll
 * with the bell), and an item newer than any seen before is shown as a toast and, when the user
 * allowed it (asked at their first alert), as a system notification through the service worker —
 * unless this device has push on, whose notification the server sends already.
 */
export function InboxWatcher() {
  const { t } = useTranslation();
  const unread = useWatch('notificationUnread', {}, POLL_MS.unreadCount);
  const latest = unread.data?.latest_id;
  const userId = useSession((st) => st.userInfo?.id ?? null);
  // The app icon's badge follows the unread items (a push sets it while the app is closed).
  const count = unread.data?.unread_count;
  useEffect(() => {
    if (count !== undefined) setAppBadge(count);
  }, [count]);
  // Another user signed in: their inbox starts from what it holds, not from the last user's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the user changing is the trigger
  useEffect(() => {
    resetInboxWatcher();
  }, [userId]);
  useEffect(() => {
    if (latest === undefined || unread.source !== 'network') return;
    const seen = inboxSeen.id;
    if (seen === null || latest <= seen) {
      inboxSeen.id = Math.max(seen ?? 0, latest);
      return;
    }
    const after = seen;
    inboxSeen.id = latest;
    void call('notificationList', { page: 1, limit: 10 }).then((result) => {
      if (!result.ok) return;
      for (const n of result.data.rows.filter((r) => r.id > after && !r.read).reverse()) {
        const text = inboxText(n, t);
        const keys = inboxKeys(n);
        toast(keys.title.key, 'info', keys.title.params);
        // With push on for this device, the server's push of this same notice shows it in the
        // system's list (server/notify): a second one from here said the fill twice.
        if (storedDeviceId() === null)
          void showSystemNotification(text.title, text.body, `alert-${n.id}`, alertNotificationData(n));
      }
    });
  }, [latest, unread.source, t]);
  return null;
}

/** The inbox bell with its unread count, beside the customer-service button. */
export function InboxBell() {
  const { t } = useTranslation();
  const unread = useWatch('notificationUnread', {}, POLL_MS.unreadCount);
  const count = unread.data?.unread_count ?? 0;
  const label = count > 0 ? t('core.inbox.openUnread', { count }) : t('core.inbox.open');
  return (
    <Link to={PATHS.notifications} className={ui.iconButton} aria-label={label} title={t('core.inbox.open')}>
      <IconBell />
      {count > 0 && (
        <span className={ui.badge} aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
