import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect';

/** The first schema: accounts, ledger, and every business table of SPEC §3. */
export function migration001(dialect: Dialect) {
  // biome-ignore lint/suspicious/noExplicitAny: the builder's table type is irrelevant here
  const withId = <T extends CreateTableBuilder<any, any>>(t: T): T =>
    (dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as T;

  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('users'))
        .addColumn('phone', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('no', 'text', (c) => c.notNull().unique())
        .addColumn('img', 'text')
        .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('fund_password_hash', 'text')
        .addColumn('fund_password_fails', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fund_password_locked_until', 'bigint')
        .addColumn('credit_score', 'integer', (c) => c.notNull().defaultTo(100))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('users_balance_non_negative', sql`balance >= 0`)
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('invitation_codes')
        .addColumn('code', 'text', (c) => c.primaryKey())
        .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_uses', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('login_attempts')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .execute();

      await withId(db.schema.createTable('ledger'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('balance_after', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('ref_type', 'text')
        .addColumn('ref_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint('ledger_balance_after_non_negative', sql`balance_after >= 0`)
        .execute();
      await db.schema.createIndex('ledger_user').on('ledger').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
        .execute();

      await db.schema
        .createTable('config')
        .addColumn('tag', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('news'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('subhead', 'text', (c) => c.notNull())
        .addColumn('img', 'text')
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('news_created').on('news').columns(['created_at', 'id']).execute();

      await db.schema
        .createTable('favourites')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('symbol', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('favourites_pk', ['user_id', 'symbol'])
        .execute();

      await withId(db.schema.createTable('bank_cards'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('bank', 'text', (c) => c.notNull())
        .addColumn('branch_bank', 'text', (c) => c.notNull())
        .addColumn('bank_card', 'text', (c) => c.notNull())
        .addColumn('bank_user', 'text', (c) => c.notNull())
        .addColumn('ifsc', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('bank_cards_user').on('bank_cards').column('user_id').execute();

      await db.schema
        .createTable('kyc')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('real_name', 'text', (c) => c.notNull())
        .addColumn('id_type', 'text', (c) => c.notNull())
        .addColumn('id_number', 'text', (c) => c.notNull())
        .addColumn('id_number_img', 'text', (c) => c.notNull())
        .addColumn('id_number_img_two', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('messages'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text')
        .addColumn('read_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('messages_user').on('messages').columns(['user_id', 'id']).execute();
      await db.schema
        .createIndex('messages_client')
        .on('messages')
        .columns(['user_id', 'client_id'])
        .unique()
        .execute();

      await db.schema
        .createTable('positions')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('symbol', 'text', (c) => c.notNull())
        .addColumn('qty', 'integer', (c) => c.notNull())
        .addColumn('reserved_qty', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cost', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('positions_pk', ['user_id', 'symbol'])
        .addCheckConstraint(
          'positions_qty_non_negative',
          sql`qty >= 0 and reserved_qty >= 0 and reserved_qty <= qty`,
        )
        .execute();

      await withId(db.schema.createTable('orders'))
        .addColumn('no', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mold', 'text', (c) => c.notNull())
        .addColumn('symbol', 'text', (c) => c.notNull())
        .addColumn('market', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('limit_price', 'bigint')
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('sell_price', 'bigint')
        .addColumn('fee', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('price_all', 'bigint', (c) => c.notNull())
        .addColumn('profit', 'bigint')
        .addColumn('ref_id', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('orders_user')
        .on('orders')
        .columns(['user_id', 'mold', 'status', 'id'])
        .execute();
      await db.schema.createIndex('orders_pending').on('orders').columns(['status', 'mold']).execute();

      await withId(db.schema.createTable('ipos'))
        .addColumn('symbol', 'text', (c) => c.notNull().unique())
        .addColumn('company_name', 'text', (c) => c.notNull())
        .addColumn('series', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('issue_price', 'bigint', (c) => c.notNull())
        .addColumn('min', 'integer', (c) => c.notNull())
        .addColumn('max', 'integer', (c) => c.notNull())
        .addColumn('issue_start_date', 'bigint', (c) => c.notNull())
        .addColumn('issue_end_date', 'bigint', (c) => c.notNull())
        .addColumn('listing_date', 'bigint', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('block_items'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('mold', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('funds'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('min_return', 'integer', (c) => c.notNull())
        .addColumn('max_return', 'integer', (c) => c.notNull())
        .addColumn('investment_period', 'integer', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('issue_amount', 'bigint', (c) => c.notNull())
        .addColumn('sold_amount', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .addCheckConstraint('funds_not_oversold', sql`sold_amount <= issue_amount`)
        .execute();

      await withId(db.schema.createTable('fund_orders'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('fund_id', 'integer', (c) => c.notNull().references('funds.id'))
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('expected_return', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('end_time', 'bigint', (c) => c.notNull())
        .addColumn('profit', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('settled_at', 'bigint')
        .execute();
      await db.schema.createIndex('fund_orders_user').on('fund_orders').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('recharges'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('settle_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('recharges_user').on('recharges').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('withdrawals'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('bank_id', 'integer', (c) => c.notNull().references('bank_cards.id'))
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addColumn('actual', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('settle_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('withdrawals_user').on('withdrawals').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('loans'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('loans_user').on('loans').columns(['user_id', 'id']).execute();

      await withId(db.schema.createTable('ops_log'))
        .addColumn('command', 'text', (c) => c.notNull())
        .addColumn('args', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}
