import { type Kysely, sql } from 'kysely';

/**
 * The trader's ticket on the server: `product` delivery or intraday and `validity` day or
 * ioc of a stock order (defaults: delivery, day — every order before them); `send_at`, an
 * after-market order's send time (the next session's open, epoch ms; null on every other order);
 * `square_at`, an executed intraday order's square-off time (its session's close), null once its
 * position was squared off and on every delivery order.
 */
export function migration049TradingAmo() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('orders')
        .addColumn('product', 'text', (c) => c.notNull().defaultTo('delivery'))
        .execute();
      await db.schema
        .alterTable('orders')
        .addColumn('validity', 'text', (c) => c.notNull().defaultTo('day'))
        .execute();
      await db.schema.alterTable('orders').addColumn('send_at', 'bigint').execute();
      await db.schema.alterTable('orders').addColumn('square_at', 'bigint').execute();
      await db.schema
        .createIndex('orders_square_due')
        .on('orders')
        .column('square_at')
        .where(sql<boolean>`square_at is not null`)
        .execute();
    },
  };
}
