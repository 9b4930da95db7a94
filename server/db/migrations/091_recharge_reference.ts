import type { Kysely } from 'kysely';

/**
 * The bank reference (UTR) a customer may give with a recharge: the back office's deposit queue
 * shows it beside the amount, so whoever confirms matches the transfer on the bank statement.
 */
export function migration091RechargeReference() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('recharges').addColumn('reference', 'text').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      await db.schema.alterTable('recharges').dropColumn('reference').execute();
    },
  };
}
