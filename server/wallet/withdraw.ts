import type { Kysely } from 'kysely';
import { CONFIG_TAGS } from '#shared/contract/config';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { WithdrawRecord } from '#shared/contract/wallet';
import { unitsToMinor } from '#shared/money';
import { checkWithdrawAmount, DEFAULT_MIN_WITHDRAW, withdrawMinimum } from '#shared/rules';
import { BANK_CARD_STATUS, WITHDRAW_STATUS } from '#shared/status';
import { lastSecurityChange } from '../account/security-events';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { post } from '../lib/ledger';
import { payoutNoticeOf } from '../notify/notify';
import { withdrawRecord } from './records';

/** The configured withdraw minimum in whole units (DESIGN: at least the fixed 10). */
async function minWithdraw(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('config')
    .select('value')
    .where('tag', '=', CONFIG_TAGS.minWithdraw)
    .executeTakeFirst();
  const configured = row && /^\d{1,9}$/.test(row.value.trim()) ? Number(row.value) : DEFAULT_MIN_WITHDRAW;
  return withdrawMinimum(configured);
}

/** Why a payout waits for the operator (i18n keys the withdraw record shows). */
const WITHDRAW_HOLD = {
  newCard: 'wallet.hold.newCard',
  securityChange: 'wallet.hold.securityChange',
  review: 'wallet.hold.review',
} as const;

/** A customer's payouts are counted over this window (rolling, so midnight splits nothing). */
export const PAYOUT_DAY_MS = 24 * 3_600_000;

/**
 * What a customer has withdrawn (asked, in progress or paid — not failed) in the PAYOUT_DAY_MS up
 * to and including `at`: above PAYOUT_APPROVAL_ABOVE the day's payouts need a second person, so two
 * ₹1,50,000 payouts back to back are one ₹3,00,000 decision.
 */
export async function payoutDayTotal(db: Kysely<DB>, userId: number, at: number): Promise<number> {
  const row = await db
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.sum<number | string | null>('amount').as('total'))
    .where('user_id', '=', userId)
    .where('status', 'in', [WITHDRAW_STATUS.inProgress, WITHDRAW_STATUS.paid])
    .where('created_at', '>', at - PAYOUT_DAY_MS)
    .where('created_at', '<=', at)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/**
 * A withdrawal to one of the user's usable bank cards: recorded in progress (`n`) and the amount
 * reserved at once with a `withdraw` posting, in the caller's transaction. It comes back only as a
 * `withdrawRefund` if the payment rail or the operator fails it (wallet/settlement.ts). The route
 * checked the transaction password first (contract `tradePassword`). To a card added or changed
 * within `config.newCardHoldMs`, or after a second factor changed or the password was reset within
 * FACTOR_SETTLE_MS (the change may be a thief's), it is held (`hold`): the rail's job
 * skips it until the operator releases, pays or rejects it; one that takes the customer's payouts of the last 24 h above
 * `config.ops.payoutApprovalAbove` is held for the back office's maker-checker approval.
 */
export async function requestWithdrawal(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.withdraw>,
): Promise<WithdrawRecord> {
  const minimum = await minWithdraw(db);
  const problem = checkWithdrawAmount(input.count, minimum);
  if (problem) throw new ApiError(problem, 400, { min: minimum });
  // Locked against an edit of the card until this commits (account/bank-cards.ts editCard): the
  // payout goes to the details read here, and a change made just before is seen as one.
  const card = await db
    .selectFrom('bank_cards')
    .select(['id', 'bank', 'bank_card', 'status', 'created_at', 'updated_at'])
    .where('id', '=', input.bank_id)
    .where('user_id', '=', userId)
    .$if(deps.database.dialect === 'postgres', (q) => q.forShare())
    .executeTakeFirst();
  if (!card) {
    const any = await db
      .selectFrom('bank_cards')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    throw any ? notFound() : invalid('errors.noBankCard');
  }
  if (card.status !== BANK_CARD_STATUS.usable) throw invalid('errors.bankCardUnusable');
  const now = deps.clock.now();
  const amount = unitsToMinor(input.count);
  // A card added or changed recently may be an intruder's: the payout waits for the operator. One
  // that takes the customer's day above PAYOUT_APPROVAL_ABOVE waits for two members of staff
  // (payouts.ts).
  const changed = Math.max(card.created_at, card.updated_at);
  const security = await lastSecurityChange(db, userId);
  const dayTotal = (await payoutDayTotal(db, userId, now)) + amount;
  const hold =
    now - changed < deps.config.newCardHoldMs
      ? WITHDRAW_HOLD.newCard
      : security !== null && now - security < deps.config.twoFactor.settleMs
        ? WITHDRAW_HOLD.securityChange
        : dayTotal > deps.config.ops.payoutApprovalAbove
          ? WITHDRAW_HOLD.review
          : null;
  const row = await db
    .insertInto('withdrawals')
    .values({
      user_id: userId,
      bank_id: card.id,
      amount,
      actual: 0,
      status: WITHDRAW_STATUS.inProgress,
      settle_at: now + Math.max(0, deps.config.sandboxSettleMs),
      hold,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // Reserved at once: the money leaves the balance now and comes back only as a refund.
  await post(db, {
    userId,
    amount: -amount,
    reason: 'withdraw',
    refType: 'withdrawal',
    refId: row.id,
    at: now,
  });
  // Held for a person: the user hears of it wherever they are, and again when it is paid.
  if (hold) await payoutNoticeOf(db, { userId, id: row.id, amount, event: 'held', at: now });
  return withdrawRecord(row, card);
}

/**
 * The withdrawals still in progress (n), each with the card it pays out to: what the payment
 * rail's job settles (wallet/jobs.ts) and the operator's `pending` list shows. Callers add their
 * filters, order and limit.
 */
export function withdrawalsInProgress(db: Kysely<DB>) {
  return db
    .selectFrom('withdrawals')
    .innerJoin('bank_cards', 'bank_cards.id', 'withdrawals.bank_id')
    .select([
      'withdrawals.id',
      'withdrawals.user_id',
      'withdrawals.amount',
      'withdrawals.created_at',
      'withdrawals.settle_at',
      'withdrawals.hold',
      'bank_cards.bank',
      'bank_cards.bank_card',
      'bank_cards.ifsc',
      'bank_cards.status as card_status',
      'bank_cards.created_at as card_added',
      'bank_cards.updated_at as card_changed',
    ])
    .where('withdrawals.status', '=', WITHDRAW_STATUS.inProgress);
}
