import type { NotificationRow } from '../../../shared/contract/watchlist';
import { formatPercent, formatPrice } from '../../../shared/format';

type Text = { key: string; params: Record<string, unknown> };

/**
 * An inbox item's title and body as i18n keys with their values (toasts take keys), for the inbox,
 * the toast and the system notification: "Reliance rose above 2,950.00" / "Now 2,951.20 (+1.05%)".
 */
export function inboxKeys(n: Pick<NotificationRow, 'params'>): { title: Text; body: Text } {
  const p = n.params;
  const decimals = Number(p.decimals ?? 2);
  const kind = p.kind === 'above' || p.kind === 'below' ? p.kind : 'move';
  const value = kind === 'move' ? `${Number(p.value)}%` : formatPrice(Number(p.value), decimals);
  return {
    title: { key: `watch.inbox.fired.${kind}`, params: { name: p.name, value } },
    body: {
      key: 'watch.inbox.now',
      params: { price: formatPrice(Number(p.price), decimals), change: formatPercent(Number(p.change ?? 0)) },
    },
  };
}

/** The same, translated. */
export function inboxText(
  n: Pick<NotificationRow, 'params'>,
  t: (key: string, params?: Record<string, unknown>) => string,
): { title: string; body: string } {
  const { title, body } = inboxKeys(n);
  return { title: t(title.key, title.params), body: t(body.key, body.params) };
}
