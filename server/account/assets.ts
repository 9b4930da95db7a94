import type { UserInfo } from '#shared/contract/account';
import { fromMinor } from '#shared/money';
import { hotReads } from '../db/hot';
import type { Deps } from '../deps';
import { bookOf } from '../portfolio/book';
import { heldOf } from '../portfolio/held';

/**
 * User info (polled every 3 s): the account's row and its total — the hero's total
 * (portfolio/book.ts: available + reserved + holdings at market + funds − loans due), from one hot
 * read (`hotReads(...).userInfo`: one prepared statement on indexed columns, one snapshot); the
 * valuation is pure.
 */
export async function userInfo(deps: Deps, userId: number): Promise<UserInfo> {
  const rows = await hotReads(deps.database).userInfo(userId);
  // The session was valid a moment ago; a user deleted since is a caller error, not an answer.
  if (!rows) throw new Error(`user ${userId} of a valid session is missing`);
  const book = bookOf(rows.user, rows.orders, heldOf(deps, rows));
  return {
    id: rows.user.id,
    user: rows.user.phone,
    no: rows.user.no,
    img: rows.user.img,
    total: fromMinor(book.total),
    money: fromMinor(rows.user.balance),
    loan: fromMinor(book.loans),
    has_fund_password: rows.user.has_fund_password,
    frozen: rows.user.frozen,
  };
}
