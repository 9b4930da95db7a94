import type { Kysely } from 'kysely';

/**
 * One-cancels-the-other GTT sells: `order_type` oco is ONE order row with two triggers
 * and one reservation of the shares. `trigger_price` is the target (it fires on a rise to it,
 * `trigger_rises` 1) and `target_limit` its limit; `stop_trigger` the stop (a fall to it) and
 * `stop_limit` its limit. `limit_price` is the limit the order rests at: the target's until a leg
 * fires, then the fired leg's; `fired_leg` says which one fired (target or stop), null before.
 * All prices in ticks; null on every other order.
 */
export function migration049TradingOco() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('orders').addColumn('target_limit', 'bigint').execute();
      await db.schema.alterTable('orders').addColumn('stop_trigger', 'bigint').execute();
      await db.schema.alterTable('orders').addColumn('stop_limit', 'bigint').execute();
      await db.schema.alterTable('orders').addColumn('fired_leg', 'text').execute();
    },
  };
}
