import type { ChatMessage } from '#shared/contract/content';
import type { CallResult, EndpointName } from '#shared/contract/index';
import type { OrderRow } from '#shared/contract/trading';
import type { BillRow } from '#shared/contract/wallet';
import { ORDER_REASONS } from '#shared/status';

/**
 * "While you were away": after more than AWAY_AFTER_MS without a good answer, when the
 * server answers again, what changed meanwhile — read from the server's own lists (orders, IPO
 * applications, bills, the chat) and kept to what happened after the last good answer.
 */
export const AWAY_AFTER_MS = 60_000;

export interface AwaySummary {
  /** The last good answer before the outage, and when the server answered again. */
  since: number;
  until: number;
  /** Orders filled, expired, cancelled or allotted since. */
  orders: OrderRow[];
  /** Credits and debits since that no order above explains. */
  bills: BillRow[];
  /** Customer-service replies since. */
  replies: ChatMessage[];
}

type Fetch = <T>(name: EndpointName, input: Record<string, unknown>) => Promise<CallResult<T>>;

/**
 * The summary of what changed after `since` (the device's time; `toServer` reads it on the server's
 * clock, which stamped the rows); null when nothing did (or nothing could be read).
 */
export async function awaySummary(
  fetch: Fetch,
  since: number,
  until: number,
  toServer: (deviceTime: number) => number = (t) => t,
): Promise<AwaySummary | null> {
  const [orders, ipo, bills, chat] = await Promise.all([
    fetch<{ rows: OrderRow[] }>('orderList', { page: 1, limit: 20 }),
    fetch<{ rows: OrderRow[] }>('ipoOrders', { type: 0 }),
    fetch<{ rows: BillRow[] }>('bill', { type: 'all', page: 1, limit: 20 }),
    fetch<ChatMessage[]>('messageList', {}),
  ]);
  const after = toServer(since);
  // A stock order pending (0), an IPO application pending (1): not news yet.
  const changed = (o: OrderRow) => o.updated_at > after && o.status !== (o.mold === 'ipo' ? 1 : 0);
  const summary: AwaySummary = {
    since,
    until,
    orders: [...(orders.ok ? orders.data.rows : []), ...(ipo.ok ? ipo.data.rows : [])]
      .filter(changed)
      .sort((a, b) => b.updated_at - a.updated_at),
    bills: (bills.ok ? bills.data.rows : []).filter(
      (b) => b.created_at > after && !ORDER_REASONS.has(b.reason),
    ),
    replies: (chat.ok ? chat.data : []).filter((m) => m.sender === 'agent' && m.created_at > after),
  };
  return summary.orders.length || summary.bills.length || summary.replies.length ? summary : null;
}
