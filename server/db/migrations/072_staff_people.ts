import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Maker-checker that knows people:
 * - staff.contact: where the member's enrolment links go (their own address; an admin never sees
 *   the link). staff.enrolled_by / enrol_issued_at: who issued the member's current enrolment (at
 *   first their creator; an admin's re-enrolment after a lost factor replaces it) — with
 *   created_by/created_at, what tells that a checker was made by the maker (approvals/people.ts).
 * - approvals: a maker's request that another member checks, for decisions other than payouts
 *   (payout_approvals keeps those): a loan above LOAN_APPROVAL_ABOVE, and the customer-account
 *   decisions of the back office. `binding` is the hash of what was asked; at most one waits per
 *   kind and target.
 */
export function migration072StaffPeople(dialect: Dialect) {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('staff').addColumn('contact', 'text').execute();
      await db.schema.alterTable('staff').addColumn('enrolled_by', 'text').execute();
      await db.schema.alterTable('staff').addColumn('enrol_issued_at', 'bigint').execute();
      await sql`update staff set enrolled_by = created_by, enrol_issued_at = created_at`.execute(db);

      await db.schema
        .createTable('approvals')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('amount', 'bigint')
        .addColumn('binding', 'text', (c) => c.notNull())
        .addColumn('detail', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('maker', 'text', (c) => c.notNull())
        .addColumn('maker_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('checker', 'text')
        .addColumn('checker_name', 'text')
        .addColumn('decided_at', 'bigint')
        .addColumn('note', 'text')
        .execute();
      await sql`create unique index approvals_awaiting on approvals (kind, target_id)
        where status = 'awaiting'`.execute(db);
      await db.schema.createIndex('approvals_user').on('approvals').columns(['user_id', 'id']).execute();
    },
  };
}
