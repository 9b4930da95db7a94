import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Loans that cost what they say. Each loan keeps the terms it was applied under
 * (`rate_bps` a year, `tenure_days`, `late_bps` per day overdue; null on loans from before: no
 * interest, as they were offered), when it was disbursed and is due, and its amount due (`due`:
 * principal plus interest and late charges accrued). `loan_postings` is the loan's own ledger:
 * every change of `due` is a posting (borrow, interest, lateCharge, repay) with the amount due
 * after it, so the audit can prove `due` is the sum of its postings. Unpaid loans from before get
 * their principal as their one posting.
 */
export function migration080LoanInterest(dialect: Dialect) {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      for (const column of ['rate_bps', 'tenure_days', 'late_bps'])
        await db.schema.alterTable('loans').addColumn(column, 'integer').execute();
      for (const column of ['disbursed_at', 'due_at', 'next_accrual_at'])
        await db.schema.alterTable('loans').addColumn(column, 'bigint').execute();
      for (const column of ['due', 'interest', 'late_charge'])
        await db.schema
          .alterTable('loans')
          .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
      await db.schema
        .createTable('loan_postings')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('loan_id', 'integer', (c) => c.notNull().references('loans.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('due_after', 'bigint', (c) => c.notNull().check(sql`due_after >= 0`))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('loan_postings_loan')
        .on('loan_postings')
        .columns(['loan_id', 'id'])
        .execute();
      await db.schema
        .createIndex('loans_accrual')
        .on('loans')
        .column('next_accrual_at')
        .where(sql<boolean>`next_accrual_at is not null`)
        .execute();
      // Loans of before, lent at no interest: the principal borrowed (unpaid: still due) and repaid.
      await sql`update loans set due = "count", disbursed_at = updated_at where state = 4`.execute(db);
      await sql`insert into loan_postings (loan_id, user_id, amount, due_after, reason, created_at)
        select id, user_id, "count", "count", 'borrow', updated_at from loans where state in (4, 5)`.execute(
        db,
      );
      await sql`insert into loan_postings (loan_id, user_id, amount, due_after, reason, created_at)
        select id, user_id, -"count", 0, 'repay', updated_at from loans where state = 5`.execute(db);
    },
  };
}
