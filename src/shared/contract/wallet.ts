import { Type } from '@sinclair/typebox';
import type { Money } from '../money';
import { endpoint } from './define';
import { NoQuery, Paging, WholeAmount } from './schemas';

/** The wallet: balance, bill list (the ledger), recharge, withdraw, their records, loans. */

/** Every reason a ledger posting can have (SPEC §3 Bill row, plus refunds this server makes). */
export const LEDGER_REASONS = [
  'buyStock',
  'sellStock',
  'buyForex',
  'sellForex',
  'buyFutures',
  'sellFutures',
  'buyTreasury',
  'sellTreasury',
  'recharge',
  'withdraw',
  'borrow',
  'repay',
  'dividend',
  'interest',
  'withdrawRefund',
  'fund_project_profit',
  'principal_returned',
  'transactionExpenses',
  'fundPurchase',
  'ipoFreeze',
  'ipoRefund',
  'orderRefund',
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** SPEC §3 Bill row: one ledger posting. */
export interface BillRow {
  id: number;
  type: 'income' | 'expense';
  /** Absolute amount. */
  amount: Money;
  /** Balance after the posting. */
  balance: Money;
  reason: LedgerReason;
  created_at: number;
}

/** Recharge status: 1 in progress, 2 completed, 3 failed. */
export interface RechargeRecord {
  id: number;
  type: 'recharge';
  count: Money;
  method: string;
  status: 1 | 2 | 3;
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
  status: 'n' | 'y' | 'b';
  actual: Money;
  bank: { id: number; bank: string; bank_card: string };
  created_at: number;
  updated_at: number;
}

/** SPEC §3 Loan record; state 0 unapplied, 1 applying, 2 approved, 3 rejected, 4 unpaid, 5 paid. */
export interface LoanRecord {
  id: number;
  type: 'loan';
  count: Money;
  state: 0 | 1 | 2 | 3 | 4 | 5;
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
  /** Asks for a recharge of `count` whole units by bank transfer (minimum 5000). */
  recharge: endpoint<RechargeRecord>()({
    method: 'POST',
    path: '/stock/success/v2/recharge/add',
    auth: true,
    money: true,
    req: Type.Object(
      { count: WholeAmount, method: Type.Optional(Type.Literal('bank')) },
      { additionalProperties: false },
    ),
  }),
  /** Withdraws `count` whole units to one of the user's bank cards; reserved at once. */
  withdraw: endpoint<WithdrawRecord>()({
    method: 'POST',
    path: '/stock/success/money/access',
    auth: true,
    money: true,
    req: Type.Object(
      { bank_id: Type.Integer({ minimum: 1 }), count: WholeAmount },
      { additionalProperties: false },
    ),
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
      id: Type.Integer({ minimum: 1 }),
      type: Type.Union([Type.Literal('recharge'), Type.Literal('withdraw')]),
    }),
  }),
  loanData: endpoint<{ amountDue: Money; creditScore: number; remainingAmount: Money }>()({
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
    req: Type.Object({ count: WholeAmount }, { additionalProperties: false }),
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
    req: Type.Object({ id: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  }),
};
