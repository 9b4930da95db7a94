import {
  currencySymbol,
  formatMoney,
  formatPercent,
  formatPrice,
  formatQuantity,
  regionUnit,
} from './format';
import { displayCode } from './rules';

/**
 * What happened to a user that they should hear of while the app is closed: a notice.
 * The server writes one in the transaction of the event (server/notify), into the inbox and the
 * push outbox; the inbox, the toast, the system notification and the push payload all word it here,
 * so a notice reads the same wherever it shows. The texts are message keys (locales/<lang>/notices.json
 * and watch.json) with their values; `t` is i18next's in the app and a small interpolator on the server.
 */
export type NoticeKind = 'alert' | 'security' | 'order' | 'ipo' | 'payout' | 'chat';
export const NOTICE_KINDS: readonly NoticeKind[] = ['alert', 'order', 'ipo', 'payout', 'chat', 'security'];

/** The groups a user turns on or off for pushes (security notices are always sent). */
export type PushToggleKind = Exclude<NoticeKind, 'security'>;
export const PUSH_TOGGLE_KINDS: readonly PushToggleKind[] = ['alert', 'order', 'ipo', 'payout', 'chat'];

/** What happened, per kind (`params.event`; a fired alert has none). */
export const NOTICE_EVENTS = {
  order: ['filled', 'expired', 'rejected', 'squaredOff'],
  ipo: ['allotted', 'notAllotted'],
  payout: ['paid', 'held', 'refunded', 'recharged', 'rechargeRejected'],
  chat: ['reply'],
} as const;

export type OrderEvent = (typeof NOTICE_EVENTS.order)[number];
export type IpoEvent = (typeof NOTICE_EVENTS.ipo)[number];
export type PayoutEvent = (typeof NOTICE_EVENTS.payout)[number];

/** A notice as the inbox row and the outbox row keep it. */
export interface Notice {
  kind: NoticeKind;
  /** The instrument it is about ('' for none). */
  symbol: string;
  /** The values of its text; `event` names what happened (security, order, ipo, payout, chat). */
  params: Record<string, string | number>;
}

export type Translate = (key: string, params?: Record<string, unknown>) => string;

/** An item's title and body, translated: `amounts` false leaves out every amount and price (a lock screen). */
export interface NoticeText {
  title: string;
  body: string;
}

/** The in-app route a notice opens (a plain path: src/shared imports nothing of the app's routes). */
export function noticePath(n: Notice): string {
  const p = n.params;
  switch (n.kind) {
    case 'security':
      return '/settings/security';
    case 'order':
      // A fill opens its contract note; an expiry the expired orders; a rejection every order.
      if (p.event === 'filled' || p.event === 'squaredOff')
        return `/records?order=${encodeURIComponent(String(p.no ?? ''))}`;
      return p.event === 'expired' ? '/records?tab=expired' : '/records';
    case 'ipo':
      return '/ipo/orders';
    case 'payout':
      return p.event === 'recharged' || p.event === 'rechargeRejected'
        ? '/recharge-records'
        : '/withdraw-records';
    case 'chat':
      return '/customer-service';
    default:
      return `/stock/v2/${encodeURIComponent(n.symbol)}/${encodeURIComponent(String(p.name ?? n.symbol))}`;
  }
}

/** The system notification's tag: one per kind, so a newer notice of a kind replaces the older one. */
export const noticeTag = (kind: NoticeKind): string => `bourse-${kind}`;

/** A price of the instrument with its currency's symbol: "₹2,500.00", "$189.40". */
function price(p: Notice['params']): string {
  return `${currencySymbol(regionUnit(String(p.region ?? 'IN')))}${formatPrice(Number(p.price), Number(p.decimals ?? 2))}`;
}

const money = (minor: unknown) => formatMoney(Number(minor ?? 0));

/** A message key with its values (a toast takes keys; the rest translate them). */
export interface NoticeKey {
  key: string;
  params: Record<string, unknown>;
}

/**
 * A notice's title and body as message keys. Without `amounts` they name what happened and the
 * instrument only ("Order filled · RELIANCE") — the default on a lock screen; with them, the
 * figures too (the inbox, and a lock screen whose owner allowed it).
 */
export function noticeKeys(n: Notice, amounts: boolean): { title: NoticeKey; body: NoticeKey } {
  const p = n.params;
  const code = displayCode(n.symbol);
  if (n.kind === 'security')
    return {
      title: { key: `watch.inbox.security.${String(p.event)}`, params: p },
      // Where it came from, as the server saw it (a notice of before names nothing); a change made
      // by staff says what it means for the customer (server/account/controls.ts).
      body: p.staff
        ? { key: `watch.inbox.security.staffBody.${String(p.event)}`, params: {} }
        : p.device
          ? {
              key: 'watch.inbox.security.bodyFrom',
              params: { from: p.address ? `${p.device} · ${p.address}` : p.device },
            }
          : { key: 'watch.inbox.security.body', params: {} },
    };
  if (n.kind === 'alert') {
    if (!amounts)
      return {
        title: { key: 'notices.text.alert.title', params: { code } },
        body: { key: 'notices.text.alert.body', params: { name: p.name ?? code } },
      };
    const decimals = Number(p.decimals ?? 2);
    const kind = p.kind === 'above' || p.kind === 'below' ? p.kind : 'move';
    const value = kind === 'move' ? `${Number(p.value)}%` : formatPrice(Number(p.value), decimals);
    return {
      title: { key: `watch.inbox.fired.${kind}`, params: { name: p.name, value } },
      body: {
        key: 'watch.inbox.now',
        params: {
          price: formatPrice(Number(p.price), decimals),
          change: formatPercent(Number(p.change ?? 0)),
        },
      },
    };
  }
  const key = `notices.text.${n.kind}.${String(p.event)}`;
  const values = {
    code,
    name: p.name ?? code,
    count: formatQuantity(Number(p.count ?? 0), regionUnit(String(p.region ?? 'IN'))),
    price: p.price === undefined ? '' : price(p),
    amount: money(p.amount),
    refund: money(p.refund),
    reason: String(p.reason ?? ''),
  };
  const detail =
    n.kind === 'order' && (p.event === 'filled' || p.event === 'squaredOff')
      ? `${key}.${p.side === 'sell' ? 'sold' : 'bought'}`
      : `${key}.detail`;
  return {
    title: { key: `${key}.title`, params: values },
    body: { key: amounts ? detail : `${key}.body`, params: values },
  };
}

/** The same, translated. */
export function noticeText(n: Notice, t: Translate, amounts: boolean): NoticeText {
  const { title, body } = noticeKeys(n, amounts);
  return { title: t(title.key, title.params), body: t(body.key, body.params) };
}
