import * as Type from '@sinclair/typebox';
import type { NoticeKind } from '../notices';
import { endpoint } from './define';
import { NoQuery, Paging, RowId, Strict, Ticker } from './schemas';
import type { WatchlistItem } from './trading';

/**
 * Named watchlists, price alerts and the notification inbox. The first list of every
 * user is the default one: SPEC's favourite calls (`collection/*`, trading.ts) read and write it.
 */

/** One list as the Watchlists screen shows it. `name` is null for the default list ("Favourites"). */
export interface Watchlist {
  id: number;
  name: string | null;
  is_default: boolean;
  /** Instruments in it. */
  count: number;
  /** Its place among the user's lists, 0 first. */
  position: number;
}

export type AlertKind = 'above' | 'below' | 'move';

/**
 * A price alert. `value` is a price (above/below, the instrument's currency) or a percent (move:
 * today's change, either way, reaches it). It fires once, when a tick crosses it; a fired alert
 * stays in the list until edited (which re-arms it) or deleted.
 */
export interface AlertRow {
  id: number;
  symbol: string;
  name: string;
  region: string;
  decimals: number;
  kind: AlertKind;
  value: number;
  /** The price when the alert was made or last edited. */
  ref_price: number;
  status: 'active' | 'fired';
  created_at: number;
  fired_at: number | null;
  fired_price: number | null;
}

/**
 * An inbox item. `kind` alert: a fired alert (`params` say which and at what price); security: an
 * event of the account's sign-in (`params.event` says which, `symbol` is empty).
 */
export interface NotificationRow {
  id: number;
  kind: NoticeKind;
  symbol: string;
  /** Interpolation values of the item's text (name, kind, value, price, decimals, region). */
  params: Record<string, string | number>;
  created_at: number;
  read: boolean;
}

const Name = Type.String({ minLength: 1, maxLength: 40 });
const AlertInput = {
  symbol: Ticker,
  kind: Type.Union([Type.Literal('above'), Type.Literal('below'), Type.Literal('move')]),
  /** A price (above/below) or a percent (move); checked against the kind by the server. */
  value: Type.Number({ exclusiveMinimum: 0, maximum: 1e9 }),
};

export const watchlistContract = {
  /** Every list of the caller, in their order; the default list exists from the first call. */
  watchlistLists: endpoint<{ rows: Watchlist[] }>()({
    method: 'GET',
    path: '/stock/success/watchlist/lists',
    auth: true,
    req: NoQuery,
  }),
  /** A new list at the end (at most WATCHLIST_MAX_LISTS, names unique per user). */
  watchlistCreate: endpoint<Watchlist>()({
    method: 'POST',
    path: '/stock/success/watchlist/create',
    auth: true,
    req: Strict({ name: Name }),
  }),
  watchlistRename: endpoint<Watchlist>()({
    method: 'POST',
    path: '/stock/success/watchlist/rename',
    auth: true,
    req: Strict({ id: RowId, name: Name }),
  }),
  /** The caller's lists in a new order: `ids` names every one of them once. */
  watchlistReorder: endpoint<{ rows: Watchlist[] }>()({
    method: 'POST',
    path: '/stock/success/watchlist/reorder',
    auth: true,
    req: Strict({ ids: Type.Array(RowId, { minItems: 1, maxItems: 10, uniqueItems: true }) }),
  }),
  /** Deletes a list and its items; the default list cannot be deleted. */
  watchlistDelete: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/watchlist/delete',
    auth: true,
    req: Strict({ id: RowId }),
  }),
  /** A list's instruments, newest first, priced like SPEC's favourites list. */
  watchlistItems: endpoint<{ list: WatchlistItem[]; total: number }>()({
    method: 'GET',
    path: '/stock/success/watchlist/items',
    auth: true,
    req: Type.Object({ id: RowId, ...Paging }),
  }),
  /** Adds to a list (at most WATCHLIST_MAX_ITEMS); adding what is there is ok (outboxes replay). */
  watchlistAdd: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/watchlist/add',
    auth: true,
    req: Strict({ id: RowId, symbol: Ticker }),
  }),
  /** Removes from a list; removing what is not there is ok. */
  watchlistRemove: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/watchlist/remove',
    auth: true,
    req: Strict({ id: RowId, symbol: Ticker }),
  }),
  /** Which of the caller's lists hold a symbol (the star and the "add to list" sheet). */
  watchlistMembership: endpoint<{ ids: number[] }>()({
    method: 'GET',
    path: '/stock/success/watchlist/membership',
    auth: true,
    req: Type.Object({ symbol: Ticker }),
  }),

  /** The caller's alerts, active first, newest first. */
  alertList: endpoint<{ rows: AlertRow[]; active: number }>()({
    method: 'GET',
    path: '/stock/success/alert/list',
    auth: true,
    req: Type.Object({ symbol: Type.Optional(Ticker) }),
  }),
  /**
   * At most ALERTS_MAX kept (triggered ones count), none once ALERT_FIRES_PER_DAY triggered in 24
   * hours; a level the price is already past is refused.
   */
  alertCreate: endpoint<AlertRow>()({
    method: 'POST',
    path: '/stock/success/alert/create',
    auth: true,
    req: Strict(AlertInput),
  }),
  /** Changes an alert's kind and value; a fired alert is armed again. */
  alertUpdate: endpoint<AlertRow>()({
    method: 'POST',
    path: '/stock/success/alert/update',
    auth: true,
    req: Strict({ id: RowId, kind: AlertInput.kind, value: AlertInput.value }),
  }),
  alertDelete: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/alert/delete',
    auth: true,
    req: Strict({ id: RowId }),
  }),

  /** The inbox, newest first. */
  notificationList: endpoint<{ rows: NotificationRow[]; count: number; unread: number }>()({
    method: 'GET',
    path: '/stock/success/notification/list',
    auth: true,
    req: Type.Object({ ...Paging }),
  }),
  /** Polled beside the customer-service unread count. */
  notificationUnread: endpoint<{ unread_count: number; latest_id: number }>()({
    method: 'GET',
    path: '/stock/success/notification/unread-count',
    auth: true,
    req: NoQuery,
  }),
  /** Marks one item (`id`) or every item read. */
  notificationRead: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/notification/read',
    auth: true,
    req: Strict({ id: Type.Optional(RowId) }),
  }),
};
