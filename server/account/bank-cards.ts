import type { Selectable } from 'kysely';
import { CONFIG_TAGS } from '#shared/contract/config';
import type { BankCard } from '#shared/contract/settings';
import { checkBankCardNumber, checkBranchCode, checkRequired, compactCode } from '#shared/rules';
import { BANK_CARD_STATUS, WITHDRAW_STATUS } from '#shared/status';
import { withTx } from '../db/index';
import type { BankCardsTable } from '../db/schema';
import type { Deps } from '../deps';
import { type Cap, withinCap } from '../lib/caps';
import { isUniqueViolation } from '../lib/db-errors';
import { conflict, notFound, refuseFirst } from '../lib/errors';
import { maskTail } from '../lib/mask';

/**
 * A user's bank cards (SPEC §5): up to BANK_CARDS_PER_USER (a parallel burst cannot pass it:
 * lib/caps.ts), a number once per user, masked on the way out. A card with a payout on its way
 * keeps its details. The transaction password is the
 * route's (contract `tradePassword`); the 24-hour hold on payouts to a new card is the wallet's.
 */

/** Cards one user may register. */
export const BANK_CARDS_PER_USER = 10;

export interface CardInput {
  bank: string;
  branch_bank: string;
  bank_card: string;
  bank_user: string;
  ifsc: string;
}

export async function listCards(deps: Deps, userId: number): Promise<BankCard[]> {
  const rows = await deps.database.db
    .selectFrom('bank_cards')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(bankCard);
}

export async function addCard(deps: Deps, userId: number, input: CardInput): Promise<BankCard> {
  const fields = await cardFields(deps, input);
  const now = deps.clock.now();
  const cap: Cap = {
    max: BANK_CARDS_PER_USER,
    count: async (trx) =>
      Number(
        (
          await trx
            .selectFrom('bank_cards')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    refusal: () => conflict('errors.bankCardLimit'),
  };
  return bankCard(
    await uniqueCard(
      withinCap(deps.database, userId, cap, (trx) =>
        trx
          .insertInto('bank_cards')
          .values({
            user_id: userId,
            ...fields,
            status: BANK_CARD_STATUS.usable,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    ),
  );
}

/**
 * A card's new details, in one transaction that first locks the card's row: a withdrawal locks it
 * too while it reads the card (wallet/withdraw.ts), so either the withdrawal came first — it is in
 * progress and the card keeps the details it pays out to — or the edit did, and the withdrawal
 * sees the card as just changed and waits for the operator (NEW_CARD_HOLD_MS). Checked and written
 * as separate steps, a withdrawal committed between them was paid to the number written after,
 * without the hold.
 */
export async function editCard(deps: Deps, userId: number, id: number, input: CardInput): Promise<BankCard> {
  const fields = await cardFields(deps, input);
  const { dialect } = deps.database;
  return bankCard(
    await uniqueCard(
      withTx(deps.database, async (trx) => {
        const card = await trx
          .selectFrom('bank_cards')
          .select('id')
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .$if(dialect === 'postgres', (q) => q.forUpdate())
          .executeTakeFirst();
        if (!card) throw notFound();
        // A payout on its way keeps the card it was sent to.
        const paying = await trx
          .selectFrom('withdrawals')
          .select('id')
          .where('bank_id', '=', card.id)
          .where('status', '=', WITHDRAW_STATUS.inProgress)
          .executeTakeFirst();
        if (paying) throw conflict('errors.bankCardInUse');
        return trx
          .updateTable('bank_cards')
          .set({ ...fields, updated_at: deps.clock.now() })
          .where('id', '=', card.id)
          .where('user_id', '=', userId)
          .returningAll()
          .executeTakeFirstOrThrow();
      }),
    ),
  );
}

/** Trimmed, compacted card fields; the first problem is thrown as a 400. */
async function cardFields(deps: Deps, input: CardInput): Promise<CardInput> {
  const fields = {
    bank: input.bank.trim(),
    branch_bank: input.branch_bank.trim(),
    bank_card: compactCode(input.bank_card),
    bank_user: input.bank_user.trim(),
    ifsc: compactCode(input.ifsc),
  };
  const unit = await deps.database.db
    .selectFrom('config')
    .select('value')
    .where('tag', '=', CONFIG_TAGS.currencyUnit)
    .executeTakeFirst();
  refuseFirst(
    checkRequired(fields.bank, fields.branch_bank, fields.bank_card, fields.bank_user, fields.ifsc),
    checkBankCardNumber(fields.bank_card),
    checkBranchCode(fields.ifsc, unit?.value ?? 'INR'),
  );
  return fields;
}

function bankCard(row: Selectable<BankCardsTable>): BankCard {
  return {
    id: row.id,
    bank: row.bank,
    branch_bank: row.branch_bank,
    bank_card: maskTail(row.bank_card),
    bank_user: row.bank_user,
    ifsc: row.ifsc,
    created_at: row.created_at,
    status: row.status,
  };
}

/** A card number the user already has is a conflict (the unique index decides), not a fault. */
async function uniqueCard<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('errors.bankCardExists');
    throw err;
  }
}
