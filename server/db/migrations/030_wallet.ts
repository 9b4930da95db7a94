import { type Kysely, sql } from 'kysely';

/**
 * Wallet and content indexes: the settlement jobs look for due recharges/withdrawals every second,
 * the operator lists what waits for review, and the unread badge is polled by every open app.
 */
export function migration030() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.createIndex('recharges_due').on('recharges').columns(['status', 'settle_at']).execute();
      await db.schema
        .createIndex('withdrawals_due')
        .on('withdrawals')
        .columns(['status', 'settle_at'])
        .execute();
      await db.schema
        .createIndex('withdrawals_bank')
        .on('withdrawals')
        .columns(['bank_id', 'status'])
        .execute();
      await db.schema.createIndex('loans_state').on('loans').columns(['state', 'id']).execute();
      await db.schema.createIndex('kyc_status').on('kyc').column('status').execute();
      await db.schema.createIndex('uploads_user').on('uploads').columns(['user_id', 'created_at']).execute();
      await db.schema
        .createIndex('bank_cards_user_card')
        .on('bank_cards')
        .columns(['user_id', 'bank_card'])
        .unique()
        .execute();
      // Only agent messages nobody has read yet: the index stays tiny however long chats get.
      await db.schema
        .createIndex('messages_unread')
        .on('messages')
        .column('user_id')
        .where(sql<boolean>`sender = 'agent' and read_at is null`)
        .execute();
    },
  };
}
