import type { Kysely } from 'kysely';

/**
 * Stop orders: `order_type` sl (trigger + limit) or slm (trigger, then the market within
 * PRICE_TOLERANCE_BPS of it); null for the market/limit orders before them. `trigger_price` in
 * ticks; `triggered_at` once the quote reached the trigger (the order then rests as a limit).
 */
export function migration048OrderTypes() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('orders').addColumn('order_type', 'text').execute();
      await db.schema.alterTable('orders').addColumn('trigger_price', 'bigint').execute();
      await db.schema.alterTable('orders').addColumn('triggered_at', 'bigint').execute();
    },
  };
}
