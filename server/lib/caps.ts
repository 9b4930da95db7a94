import type { Kysely } from 'kysely';
import { type Database, withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { ApiError } from './errors';
import { lockUser } from './ledger';

/**
 * Per-user caps on the rows a user can create. Counting and writing in separate steps
 * lets a burst of parallel requests each see room for one more (120 parallel uploads kept 54 of
 * 50), so the count and the write share one transaction that first locks the owner's row
 * (PostgreSQL: `SELECT … FOR UPDATE` on users; SQLite runs one write transaction at a time).
 */
export interface Cap {
  /** How many of the owner's rows count against the cap, read inside the transaction. */
  count(trx: Kysely<DB>): Promise<number>;
  max: number;
  /** The refusal once `max` are there. */
  refusal(): ApiError;
}

/** Runs `write` in the owner's locked transaction, unless the cap is already reached. */
export function withinCap<T>(
  database: Database,
  userId: number,
  cap: Cap,
  write: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return withTx(database, (trx) => checkCap(trx, database, userId, cap).then(() => write(trx)));
}

/** The same check inside a transaction the caller already holds (a money endpoint's). */
export async function checkCap(trx: Kysely<DB>, database: Database, userId: number, cap: Cap): Promise<void> {
  await lockUser(trx, database.dialect, userId);
  if ((await cap.count(trx)) >= cap.max) throw cap.refusal();
}
