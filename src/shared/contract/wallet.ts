import * as Type from '@sinclair/typebox';
import type { Money } from '../money';
import type { LedgerReason, LoanState, RechargeStatus, WithdrawStatus } from '../status';
import { endpoint } from './define';
import { NoQuery, Paging, RowId, Strict, TradeCode, WholeAmount } from './schemas';

/** The wallet: balance, bill list (the ledger), recharge, withdraw, their records, loans. */

export type { LedgerReason } from '../status';

/** SPEC §3 Bill row: one ledger posting. */
export interface BillRow {
  id: number;
  type: 'income' | 'expense';
  /** Absolute amount. */
  amount: Money;
  /** Balance after the posting. */
  balance: Money;
  reason: LedgerReason;
  /** The instrument of the order a trade's posting belongs to (its cost, proceeds, charges), or null. */
  symbol: string | null;
  created_at: number;
}

/** Recharge status: 1 in progress, 2 completed, 3 failed. */
export interface RechargeRecord {
  id: number;
  type: 'recharge';
  count: Money;
  method: string;
  status: RechargeStatus;
  /** Amount credited (0 until completed). */
  actual: Money;
  created_at: number;
  updated_at: number;
}

/** Withdraw status: n in progress, y completed, b failed (refunded). */
export interface WithdrawRecord {
  id: number;
  type: 'withdraw';
  count: Money;
  status: WithdrawStatus;
  actual: Money;
  bank: { id: number; bank: string; bank_card: string };
  /**
   * Why the payout waits for the operator instead of the payment rail (an i18n key, e.g.
   * `wallet.hold.newCard`), or null. Cleared when the operator releases it to the payment rail;
   * kept, as the record's history, when the operator pays or refuses it.
   */
  hold: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * SPEC §3 Loan data, with the terms a user reads before applying (30) — the terms the
 * server applies to a new loan (each loan keeps the terms it was applied under): simple interest
 * on the principal at `interestRate` a year, accrued daily into the amount due; repayment due
 * `tenureDays` after disbursement; after that a late charge per day overdue. The credit limit is
 * the score times `creditPerPoint`.
 */
export interface LoanData {
  /** Unpaid loans: principal plus interest and late charges accrued. */
  amountDue: Money;
  /** The interest and late charges in `amountDue`. */
  accrued: Money;
  creditScore: number;
  remainingAmount: Money;
  creditLimit: Money;
  /** Credit each point of score allows. */
  creditPerPoint: Money;
  terms: {
    /** Yearly interest, percent. */
    interestRate: number;
    /** Days from disbursement until repayment is due. */
    tenureDays: number | null;
    /** Charge per day overdue, percent of the principal. */
    lateChargeRate: number;
  };
}

/** SPEC §3 Loan record; state 0 unapplied, 1 applying, 2 approved, 3 rejected, 4 unpaid, 5 paid. */
export interface LoanRecord {
  id: number;
  type: 'loan';
  count: Money;
  state: LoanState;
  /** Amount due now (principal + accrued); 0 once paid, before disbursement the principal is not yet due. */
  due: Money;
  /** Interest and late charges accrued (kept after repayment: what it cost). */
  accrued: Money;
  /** The yearly rate this loan was applied under, percent. */
  interest_rate: number;
  /** When repayment is due (epoch ms); null until disbursed. */
  due_at: number | null;
  created_at: number;
  updated_at: number;
}

export const walletContract = {
  balance: endpoint<{ balance: Money }>()({
    method: 'GET',
    path: '/stock/success/v2/balance',
    auth: true,
    req: NoQuery,
  }),
  bill: endpoint<{ rows: BillRow[]; count: number }>()({
    method: 'GET',
    path: '/stock/success/v2/bill',
    auth: true,
    req: Type.Object({
      type: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('income'), Type.Literal('expense')])),
      ...Paging,
    }),
  }),
  /**
   * Asks for a recharge of `count` whole units by bank transfer (minimum 5000), with the transfer's
   * bank reference (UTR: 12 to 22 letters and digits) when the customer has one.
   */
  recharge: endpoint<RechargeRecord>()({
    method: 'POST',
    path: '/stock/success/v2/recharge/add',
    auth: true,
    money: true,
    bearer: true,
    req: Strict({
      count: WholeAmount,
      method: Type.Optional(Type.Literal('bank')),
      reference: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9]{12,22}$' })),
    }),
  }),
  /**
   * Withdraws `count` whole units to one of the user's bank cards; reserved at once. Needs the
   * transaction password (`stock_password`) and, where the account has a second factor, the
   * session's fresh step-up; a payout to a card added or changed in the last 24 h, or
   * after a factor change or password reset in the last 24 h, is held for the operator (`hold`).
   */
  withdraw: endpoint<WithdrawRecord>()({
    method: 'POST',
    path: '/stock/success/money/access',
    auth: true,
    money: true,
    tradePassword: true,
    stepUp: true,
    req: Strict({ bank_id: RowId, count: WholeAmount, stock_password: Type.Optional(TradeCode) }),
  }),
  rechargeRecords: endpoint<{ rows: RechargeRecord[]; count: number }>()({
    method: 'GET',
    path: '/stock/success/property/list',
    auth: true,
    req: Type.Object({ ...Paging }),
  }),
  withdrawRecords: endpoint<{ rows: WithdrawRecord[]; count: number }>()({
    method: 'GET',
    path: '/stock/success/property/withdraw',
    auth: true,
    req: Type.Object({ ...Paging }),
  }),
  /** One recharge or withdrawal (/account/recharge-withdraw/{id}). */
  recordDetail: endpoint<RechargeRecord | WithdrawRecord>()({
    method: 'GET',
    path: '/stock/success/property/detail',
    auth: true,
    req: Type.Object({
      id: RowId,
      type: Type.Union([Type.Literal('recharge'), Type.Literal('withdraw')]),
    }),
  }),
  loanData: endpoint<LoanData>()({
    method: 'GET',
    path: '/stock/success/loans/data',
    auth: true,
    req: NoQuery,
  }),
  /** Applies for a loan of `count` whole units (minimum 500, at most the remaining credit). */
  loanApply: endpoint<LoanRecord>()({
    method: 'POST',
    path: '/stock/success/loans/add',
    auth: true,
    money: true,
    req: Strict({ count: WholeAmount }),
  }),
  loanList: endpoint<{ rows: LoanRecord[] }>()({
    method: 'GET',
    path: '/stock/success/loans/list',
    auth: true,
    req: NoQuery,
  }),
  /** Repays an unpaid loan in full from the balance. */
  loanRepay: endpoint<LoanRecord>()({
    method: 'POST',
    path: '/stock/success/loans/repay',
    auth: true,
    money: true,
    req: Strict({ id: RowId }),
  }),
};
