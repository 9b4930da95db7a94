import type { NotificationRow } from '../../../shared/contract/watchlist';
import { noticeKeys, noticeText, type Translate } from '../../../shared/notices';

/**
 * An inbox item's title and body as i18n keys with their values (toasts take keys), for the inbox,
 * the toast and the system notification: "Reliance rose above 2,950.00" / "Now 2,951.20 (+1.05%)",
 * "Order filled · RELIANCE" / "Bought 10 at ₹2,440.00", or a security event. In the app the figures
 * are shown: the worded notice is src/shared/notices.ts, the push's wording too.
 */
export function inboxKeys(n: Pick<NotificationRow, 'kind' | 'symbol' | 'params'>) {
  return noticeKeys(n, true);
}

/** The same, translated. */
export function inboxText(n: Pick<NotificationRow, 'kind' | 'symbol' | 'params'>, t: Translate) {
  return noticeText(n, t, true);
}
