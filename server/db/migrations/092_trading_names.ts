import type { Kysely } from 'kysely';

/**
 * The trading tables in our own words: SPEC's API names (`mold`, `state`, `count`, a block item's
 * `tag` and `type`) stay on the wire, mapped where rows become answers (trading/order-rows.ts,
 * trading/holdings.ts). Both dialects rename in place, indexes included (SQLite ≥ 3.25 rewrites the
 * index definitions, the partial `orders_open_buys` too; PostgreSQL's indexes name columns by number).
 */
const RENAMES: Array<[table: string, from: string, to: string]> = [
  ['orders', 'mold', 'kind'],
  ['orders', 'state', 'side'],
  ['orders', 'count', 'qty'],
  ['block_items', 'mold', 'kind'],
  ['block_items', 'count', 'min_qty'],
  ['block_items', 'tag', 'symbol'],
  ['block_items', 'type', 'region'],
];

export function migration092TradingNames() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      for (const [table, from, to] of RENAMES)
        await db.schema.alterTable(table).renameColumn(from, to).execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      for (const [table, from, to] of RENAMES)
        await db.schema.alterTable(table).renameColumn(to, from).execute();
    },
  };
}
