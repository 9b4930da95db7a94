import { type Kysely, sql } from 'kysely';
import { ERR } from '../../src/shared/contract/define';
import type { DB } from '../db/schema';
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
  reason: string;
  refType?: string;
  refId?: number;
  at: number;
}

export async function post(trx: Kysely<DB>, p: Posting): Promise<{ balanceAfter: number; id: number }> {
  if (!Number.isSafeInteger(p.amount) || p.amount === 0) throw new Error(`bad posting amount ${p.amount}`);
  const updated = await trx
    .updateTable('users')
    .set({ balance: sql<number>`balance + ${p.amount}` })
    .where('id', '=', p.userId)
    .$if(p.amount < 0, (q) => q.where('balance', '>=', -p.amount))
    .returning('balance')
    .executeTakeFirst();
  if (!updated) throw new ApiError(ERR.insufficientFunds, 422);
  const row = await trx
    .insertInto('ledger')
    .values({
      user_id: p.userId,
      amount: p.amount,
      balance_after: updated.balance,
      reason: p.reason,
      ref_type: p.refType ?? null,
      ref_id: p.refId ?? null,
      created_at: p.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { balanceAfter: updated.balance, id: row.id };
}
