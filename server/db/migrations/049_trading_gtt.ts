import type { Kysely } from 'kysely';

/**
 * Good-till-triggered orders: `order_type` gtt, valid up to a year (`expires_at`). Its
 * trigger may be on either side of the quote, so the side it waits on is kept: `trigger_rises` 1
 * when it fires on a rise to the trigger, 0 on a fall; null for every other order.
 */
export function migration049TradingGtt() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('orders').addColumn('trigger_rises', 'integer').execute();
    },
  };
}
