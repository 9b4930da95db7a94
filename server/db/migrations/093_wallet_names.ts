import type { Kysely } from 'kysely';

/**
 * The wallet tables in our own words, as 092 did for trading: SPEC's `count` (a recharge's,
 * withdrawal's or loan's money) is `amount`, a loan's `state` is its `status`. The wire keeps SPEC's
 * names, mapped where rows become answers (wallet/records.ts, wallet/loans.ts). Indexes follow the
 * columns on both dialects (loans_state and loans_user_state keep their names).
 */
const RENAMES: Array<[table: string, from: string, to: string]> = [
  ['recharges', 'count', 'amount'],
  ['withdrawals', 'count', 'amount'],
  ['loans', 'count', 'amount'],
  ['loans', 'state', 'status'],
];

export function migration093WalletNames() {
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
