import type { Kysely } from 'kysely';

/**
 * Withdrawals held for the operator (hole 4): `hold` is why a payout waits for a human
 * instead of the payment rail (an i18n key the withdraw record shows, e.g. `wallet.hold.newCard`
 * for a card added or changed less than a day before), null for an ordinary one. The operator's
 * `withdraw:release` clears it (the rail pays); `withdraw:pay|reject` decide it themselves.
 */
export function migration048WithdrawHold() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('withdrawals').addColumn('hold', 'text').execute();
    },
  };
}
