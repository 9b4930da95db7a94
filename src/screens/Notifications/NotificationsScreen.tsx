import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import { PATHS } from '../../paths';
import type { NotificationRow } from '../../shared/contract/watchlist';
import { formatDateTime } from '../../shared/format';
import { POLL_MS } from '../../shared/rules';
import { Button, EmptyState, IconBell, ListStates, PageHeader, ui } from '../../ui';
import s from '../_parts/trading/trading.module.css';
import { inboxText } from '../_parts/watchlist/inbox';
import { inboxPath } from '../_parts/watchlist/notify';
import w from '../_parts/watchlist/watchlist.module.css';

/** How many inbox items the screen shows (the newest). */
const INBOX_ROWS = 50;

/**
 * The inbox: fired price alerts, newest first, unread ones marked. Opening an item
 * marks it read and goes to the instrument; "Mark all as read" clears the badge.
 */
export default function NotificationsScreen() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const inbox = useWatch('notificationList', { page: 1, limit: INBOX_ROWS }, POLL_MS.unreadCount);
  const unread = useWatch('notificationUnread', {}, POLL_MS.unreadCount);

  async function open(n: NotificationRow) {
    if (!n.read) {
      await call('notificationRead', { id: n.id });
      unread.reload();
    }
    navigate(inboxPath(n));
  }

  return (
    <main className={`${ui.page} ${s.page}`}>
      <PageHeader
        title={t('watch.inbox.title')}
        actions={
          (inbox.data?.unread ?? 0) > 0 && (
            <button
              type="button"
              className={s.headerLink}
              onClick={async () => {
                await call('notificationRead', {});
                inbox.reload();
                unread.reload();
              }}
            >
              {t('watch.inbox.readAll')}
            </button>
          )
        }
      />
      <ListStates
        rows={inbox.data?.rows}
        error={inbox.error}
        onRetry={inbox.reload}
        skeleton={{ rows: 4, height: 64 }}
        empty={
          <EmptyState title={t('watch.inbox.empty')} icon={<IconBell size={28} />}>
            <Button variant="secondary" onClick={() => navigate(PATHS.alerts)}>
              {t('watch.alerts.title')}
            </Button>
          </EmptyState>
        }
      >
        {(rows) => (
          <ul className={`${ui.cardList} ${w.items}`} aria-label={t('watch.inbox.title')}>
            {rows.map((n) => {
              const text = inboxText(n, t);
              return (
                <li
                  key={n.id}
                  className={`${ui.cardRow} ${w.item} ${n.read ? '' : w.unread}`}
                  data-read={n.read ? '1' : '0'}
                >
                  <button type="button" className={w.itemMain} onClick={() => void open(n)}>
                    <span className={w.itemTitle}>
                      {!n.read && <span className="visually-hidden">{t('watch.inbox.unread')} </span>}
                      {text.title}
                    </span>
                    <span className={w.itemSub}>{text.body}</span>
                    <span className={w.itemSub}>{formatDateTime(n.created_at, i18n.language)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </ListStates>
    </main>
  );
}
