import type { NotificationRow } from '../../../shared/contract/watchlist';
import { formatPercent, formatPrice } from '../../../shared/format';

type Text = { key: string; params: Record<string, unknown> };

/**
 * An inbox item's title and body as i18n keys with their values (toasts take keys), for the inbox,
 * the toast and the system notification: "Reliance rose above 2,950.00" / "Now 2,951.20 (+1.05%)",
 * or a security event: "Passkey “Pixel” added to your account" / "Not you? …".
 */
export function inboxKeys(n: Pick<NotificationRow, 'kind' | 'params'>): { title: Text; body: Text } {
  const p = n.params;
  // A security event of the account (issue 32): what happened, and what to do if it was not you.
  if (n.kind === 'security')
    return {
      title: { key: `watch.inbox.security.${String(p.event)}`, params: p },
      body: { key: 'watch.inbox.security.body', params: {} },
    };
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
  n: Pick<NotificationRow, 'kind' | 'params'>,
  t: (key: string, params?: Record<string, unknown>) => string,
): { title: string; body: string } {
  const { title, body } = inboxKeys(n);
  return { title: t(title.key, title.params), body: t(body.key, body.params) };
}
