import type { Kysely } from 'kysely';
import { ERR } from '#shared/contract/define';
import type { LedgerReason } from '#shared/status';
import type { Dialect } from '../db/index';
import type { DB } from '../db/schema';
import { statement } from '../db/statement';
import { ApiError } from './errors';

/**
 * The one place a balance changes. Each posting updates the balance with a guarded statement
 * (a debit that would go below zero changes no row) and writes the ledger row in the same
 * transaction, so the sum of a user's postings always equals their balance.
 * Call it only inside a transaction that also writes the business row that caused it.
 */
export interface Posting {
  userId: number;
  /** Signed minor units: positive credits, negative debits. */
  amount: number;
  reason: LedgerReason;
  refType?: string;
  refId?: number;
  at: number;
}

/**
 * No balance ever exceeds this (10^15 minor units, below 2^53 / 8), whatever MAX_BALANCE says: a
 * credit past it is refused, so sums of balances stay exact integers in JavaScript.
 */
export const BALANCE_CEILING_MINOR = 1_000_000_000_000_000;

/*
 * Fixed SQL (db/statement.ts): every order, recharge and payout posts, usually twice. A debit
 * changes no row unless the balance covers it; a credit none past the ceiling.
 */
const DEBIT = statement<{ balance: number }>(
  'update users set balance = balance + ? where id = ? and balance >= ? returning balance',
);
const CREDIT = statement<{ balance: number }>(
  'update users set balance = balance + ? where id = ? and balance <= ? returning balance',
);
const INSERT_POSTING = statement<{ id: number }>(
  `insert into ledger (user_id, amount, balance_after, reason, ref_type, ref_id, created_at)
   values (?, ?, ?, ?, ?, ?, ?) returning id`,
);

/**
 * The postings made on a transaction while a tap is on it (lib/audit-log.ts `audited`: a staff
 * action's postings point at its audit entry). Keyed by the transaction object, which callers pass
 * down unchanged; a group commit runs its transactions one after another on one object, and a tap
 * lives only while its own action runs.
 */
const taps = new WeakMap<Kysely<DB>, number[]>();

export function tapPostings(trx: Kysely<DB>): { ids: number[]; stop(): void } {
  const ids: number[] = [];
  taps.set(trx, ids);
  return { ids, stop: () => taps.delete(trx) };
}

export async function post(trx: Kysely<DB>, p: Posting): Promise<{ balanceAfter: number; id: number }> {
  if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new Error(`bad posting amount ${p.amount}`);
  const [updated] =
    p.amount < 0
      ? await DEBIT(trx, [p.amount, p.userId, -p.amount])
      : await CREDIT(trx, [p.amount, p.userId, BALANCE_CEILING_MINOR - p.amount]);
  if (!updated) throw new ApiError(p.amount < 0 ? ERR.insufficientFunds : 'errors.balanceMax', 422);
  const balanceAfter = Number(updated.balance);
  const [row] = await INSERT_POSTING(trx, [
    p.userId,
    p.amount,
    balanceAfter,
    p.reason,
    p.refType ?? null,
    p.refId ?? null,
    p.at,
  ]);
  if (!row) throw new Error('ledger insert returned no row');
  const id = Number(row.id);
  taps.get(trx)?.push(id);
  return { balanceAfter, id };
}

/**
 * Serialises one user's money decisions that read before they write (how many orders are open, how
 * much of an IPO is applied for): PostgreSQL locks the user's row for the rest of the transaction;
 * SQLite already has one writer.
 */
export async function lockUser(db: Kysely<DB>, dialect: Dialect, userId: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
}
