import { type Kysely, sql } from 'kysely';

/**
 * The back office's customer search and list (backoffice/customer-search.ts) stay index lookups
 * however many customers there are: a phone's and a card's last four digits are indexed as the
 * search compares them (`substr(x, length(x) - 3)`, the same text on both databases), and a whole card
 * number as stored (compacted, `compactCode`). An ID number is found through 073's normalised
 * index, the list's KYC filter through 030's `kyc_status`.
 */
export function migration076CustomerSearch() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await sql`create index users_phone_tail on users (substr(phone, length(phone) - 3))`.execute(db);
      await sql`create index bank_cards_tail on bank_cards
        (substr(bank_card, length(bank_card) - 3))`.execute(db);
      await db.schema.createIndex('bank_cards_number').on('bank_cards').column('bank_card').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      for (const name of ['users_phone_tail', 'bank_cards_tail', 'bank_cards_number'])
        await db.schema.dropIndex(name).execute();
    },
  };
}
