import type { Kysely } from 'kysely';

/**
 * Charges of an executed stock order (server/trading/charges.ts), minor units, so the
 * contract note shows what was charged even after the schedule changes. `fee` stays their sum.
 */
export const CHARGE_COLUMNS = [
  'ch_brokerage',
  'ch_stt',
  'ch_exchange',
  'ch_sebi',
  'ch_stamp',
  'ch_gst',
] as const;

export function migration048() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      for (const column of CHARGE_COLUMNS) {
        await db.schema
          .alterTable('orders')
          .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}
