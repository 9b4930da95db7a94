import { type Kysely, sql } from 'kysely';

/**
 * An ID number approved for another customer is flagged to the officer (backoffice/kyc.ts): an
 * index on the number as compared — upper case, without spaces or dashes — so the check is one
 * lookup however many customers there are.
 */
export function migration073KycIdIndex() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await sql`create index kyc_id_number_norm on kyc
        (upper(replace(replace(id_number, ' ', ''), '-', '')))`.execute(db);
    },
  };
}
