import type { Kysely } from 'kysely';

/**
 * Trading: what the order engine needs beside 001's tables.
 * - orders.rate: the conversion rate (ticks) fixed when the order was placed, so a pending buy
 *   fills within the money it reserved and an IPO allotment refunds exactly what was frozen.
 * - orders.region: IN or US, the currency-symbol region of the instrument when the order was made.
 * - orders.closed_at: set when an IPO/block holding (a buy row) is sold, so it is sold once.
 * - positions.cost_native: cost basis in the instrument's currency (ticks × units), so the
 *   average price does not drift when the configured rate changes.
 */
export function migration010() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('orders')
        .addColumn('rate', 'bigint', (c) => c.notNull().defaultTo(10_000))
        .execute();
      await db.schema
        .alterTable('orders')
        .addColumn('region', 'text', (c) => c.notNull().defaultTo('IN'))
        .execute();
      await db.schema.alterTable('orders').addColumn('closed_at', 'bigint').execute();
      await db.schema
        .alterTable('positions')
        .addColumn('cost_native', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('orders_ref').on('orders').columns(['mold', 'ref_id', 'status']).execute();
      await db.schema
        .createIndex('fund_orders_due')
        .on('fund_orders')
        .columns(['status', 'end_time'])
        .execute();
    },
  };
}
