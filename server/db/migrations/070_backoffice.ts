import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The back office: staff apart from customers, the append-only audit log, and the
 * state the staff's work needs.
 * - staff: one row per member; `password_hash` null until the enrolment link is used; `role` one
 *   of server/backoffice/roles.ts; `disabled_at` ends every session and sign-in.
 * - staff_enrolments: one-time links (`token_hash`: the link's SHA-256), short-lived.
 * - staff_sessions: `stage` enrol (a factor to set up), verify (a factor to give) or full; only a
 *   full session opens the back office. `factor_at`: the last second factor, for step-up.
 * - audit_log: every staff and operator action. `seq` is given by the writer (not a sequence) so
 *   that it is part of the entry's hash; `hash` = SHA-256 of the previous hash and the entry.
 *   Triggers refuse UPDATE and DELETE (and TRUNCATE on PostgreSQL): the database keeps it
 *   append-only whatever code runs.
 * - ledger.audit_id: the audit entry of the staff action that caused a posting.
 * - payout_approvals: a maker's payout above PAYOUT_APPROVAL_ABOVE waiting for a checker, bound to
 *   the exact payout (`binding`: a hash of withdrawal, customer, amount and card as they were).
 * - work_claims: who took a queue item. chat_threads: assignment and typing of each customer's chat.
 * - canned_replies, staff_notes, news_scheduled (articles to publish at a set time),
 *   ipo_allotments (an allotment table proposed by one person and run by another).
 * - kyc.reason: the reason code of a rejection (the customer's app words it in their language).
 */
export function migration070Backoffice(dialect: Dialect) {
  // biome-ignore lint/suspicious/noExplicitAny: the builder's table type is irrelevant here
  const withId = <T extends CreateTableBuilder<any, any>>(t: T): T =>
    (dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as T;
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('staff'))
        .addColumn('login', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('enrolled_at', 'bigint')
        .addColumn('disabled_at', 'bigint')
        .execute();

      await db.schema
        .createTable('staff_enrolments')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();

      await db.schema
        .createTable('staff_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('stage', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('factor_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').column('staff_id').execute();

      await db.schema
        .createTable('audit_log')
        .addColumn('seq', 'integer', (c) => c.primaryKey())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text')
        .addColumn('target_id', 'text')
        .addColumn('customer_id', 'integer')
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('reason', 'text')
        .addColumn('request_id', 'text')
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
      await db.schema
        .createIndex('audit_log_customer')
        .on('audit_log')
        .columns(['customer_id', 'seq'])
        .execute();
      if (dialect === 'postgres') {
        await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
          begin raise exception 'audit_log is append-only'; end $$`.execute(db);
        await sql`create trigger audit_log_no_change before update or delete on audit_log
          for each row execute function audit_log_append_only()`.execute(db);
        await sql`create trigger audit_log_no_truncate before truncate on audit_log
          for each statement execute function audit_log_append_only()`.execute(db);
      } else {
        await sql`create trigger audit_log_no_update before update on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
        await sql`create trigger audit_log_no_delete before delete on audit_log
          begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      }

      await db.schema.alterTable('ledger').addColumn('audit_seq', 'integer').execute();
      await db.schema.alterTable('kyc').addColumn('reason', 'text').execute();

      await withId(db.schema.createTable('payout_approvals'))
        .addColumn('withdrawal_id', 'integer', (c) => c.notNull().references('withdrawals.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('bank_id', 'integer', (c) => c.notNull())
        .addColumn('binding', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('maker', 'text', (c) => c.notNull())
        .addColumn('maker_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('checker', 'text')
        .addColumn('checker_name', 'text')
        .addColumn('decided_at', 'bigint')
        .addColumn('note', 'text')
        .execute();
      // At most one approval waits per withdrawal.
      await sql`create unique index payout_approvals_awaiting on payout_approvals (withdrawal_id)
        where status = 'awaiting'`.execute(db);

      await db.schema
        .createTable('work_claims')
        .addColumn('item_type', 'text', (c) => c.notNull())
        .addColumn('item_id', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('claimed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('work_claims_pk', ['item_type', 'item_id'])
        .execute();

      await db.schema
        .createTable('chat_threads')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('assigned_to', 'integer', (c) => c.references('staff.id'))
        .addColumn('assigned_at', 'bigint')
        .addColumn('customer_typing_at', 'bigint')
        .addColumn('agent_typing_at', 'bigint')
        .execute();

      await withId(db.schema.createTable('canned_replies'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('staff_notes'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('staff_notes_user').on('staff_notes').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('news_scheduled'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('subhead', 'text', (c) => c.notNull())
        .addColumn('img', 'text')
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('publish_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('published_id', 'integer')
        .addColumn('cancelled_at', 'bigint')
        .execute();

      await withId(db.schema.createTable('ipo_allotments'))
        .addColumn('ipo_id', 'integer', (c) => c.notNull().references('ipos.id'))
        .addColumn('ratio_bps', 'integer', (c) => c.notNull())
        .addColumn('binding', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('proposed_by', 'text', (c) => c.notNull())
        .addColumn('proposed_name', 'text', (c) => c.notNull())
        .addColumn('proposed_at', 'bigint', (c) => c.notNull())
        .addColumn('run_by', 'text')
        .addColumn('run_name', 'text')
        .addColumn('run_at', 'bigint')
        .execute();
      await sql`create unique index ipo_allotments_proposed on ipo_allotments (ipo_id)
        where status = 'proposed'`.execute(db);
    },
  };
}
