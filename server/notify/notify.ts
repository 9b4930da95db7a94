import type { Kysely } from 'kysely';
import type { Notice, PayoutEvent } from '#shared/notices';
import type { DB } from '../db/schema';

/**
 * Every notice a user gets is written here, in the transaction of the event that causes it (an alert
 * firing, an order filling, a payout paid…): its inbox item and its push outbox row, so a notice
 * exists exactly when its event committed — never for an event that rolled back, never missing for
 * one that did not. The push sender (sender.ts) takes the outbox from there, on the jobs' leader.
 */
export interface NoticeInput extends Notice {
  userId: number;
  /** The row it is about (alert, order, withdrawal): the inbox's `ref_id`. */
  refId?: number | null;
  at: number;
  /** Also an inbox item (default). A chat reply is not: the chat keeps its own unread count. */
  inbox?: boolean;
}

/** Inbox items kept per user, newest first (older ones are dropped as new ones arrive). */
export const NOTIFICATIONS_KEPT = 200;

export async function notify(trx: Kysely<DB>, n: NoticeInput): Promise<{ notificationId: number | null }> {
  const params = JSON.stringify(n.params);
  let notificationId: number | null = null;
  if (n.inbox !== false) {
    const row = await trx
      .insertInto('notifications')
      .values({
        user_id: n.userId,
        kind: n.kind,
        ref_id: n.refId ?? null,
        symbol: n.symbol,
        params,
        created_at: n.at,
        read_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    notificationId = row.id;
    await trimInbox(trx, n.userId);
  }
  await trx
    .insertInto('push_outbox')
    .values({
      user_id: n.userId,
      kind: n.kind,
      symbol: n.symbol,
      params,
      notification_id: notificationId,
      state: 0,
      created_at: n.at,
    })
    .execute();
  return { notificationId };
}

/** A withdrawal paid, held for review or refunded (wallet/): the amount in minor units. */
export function payoutNoticeOf(
  trx: Kysely<DB>,
  p: { userId: number; id: number; amount: number; event: PayoutEvent; at: number },
): Promise<{ notificationId: number | null }> {
  return notify(trx, {
    userId: p.userId,
    kind: 'payout',
    refId: p.id,
    symbol: '',
    params: { event: p.event, amount: p.amount },
    at: p.at,
  });
}

/** Drops a user's inbox items beyond the newest NOTIFICATIONS_KEPT. */
async function trimInbox(trx: Kysely<DB>, userId: number): Promise<void> {
  const edge = await trx
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .offset(NOTIFICATIONS_KEPT)
    .limit(1)
    .executeTakeFirst();
  if (edge)
    await trx.deleteFrom('notifications').where('user_id', '=', userId).where('id', '<=', edge.id).execute();
}
