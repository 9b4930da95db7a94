/**
 * The status and reason vocabularies (SPEC §3/§4, DESIGN "Settling"), as typed constants: the
 * server writes them, the app labels them, the ledger audit checks them. Compare with these names,
 * never with a bare 1 or 'n'.
 */

/** What buying and selling each instrument type posts. */
const TRADE_REASONS = [
  'buyStock',
  'sellStock',
  'buyForex',
  'sellForex',
  'buyFutures',
  'sellFutures',
  'buyTreasury',
  'sellTreasury',
] as const;

/** Every reason a ledger posting can have (SPEC §3 Bill row, plus refunds this server makes). */
export const LEDGER_REASONS = [
  ...TRADE_REASONS,
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
  'fundRefund',
  'fundRedemption',
  'exitLoad',
  'ipoFreeze',
  'ipoRefund',
  'orderRefund',
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** The reasons an order's own postings carry (its cost or proceeds and its charges). */
export const ORDER_REASONS: ReadonlySet<string> = new Set<LedgerReason>([
  ...TRADE_REASONS,
  'transactionExpenses',
]);

/** Recharge (SPEC §4): 1 in progress, 2 completed, 3 failed. */
export const RECHARGE_STATUS = { inProgress: 1, completed: 2, failed: 3 } as const;
export type RechargeStatus = (typeof RECHARGE_STATUS)[keyof typeof RECHARGE_STATUS];

/** Withdrawal (SPEC §4): n in progress (the amount reserved), y paid out, b failed (refunded). */
export const WITHDRAW_STATUS = { inProgress: 'n', paid: 'y', failed: 'b' } as const;
export type WithdrawStatus = (typeof WITHDRAW_STATUS)[keyof typeof WITHDRAW_STATUS];

/** Loan (SPEC §4, DESIGN "Loans"): applying → approved and disbursed as unpaid → paid; or rejected. */
export const LOAN_STATE = {
  unapplied: 0,
  applying: 1,
  approved: 2,
  rejected: 3,
  unpaid: 4,
  paid: 5,
} as const;
export type LoanState = (typeof LOAN_STATE)[keyof typeof LOAN_STATE];

/** Stock orders (DESIGN "Settling"): the records tabs filter on them. */
export const STOCK_STATUS = { pending: 0, success: 1, cancelled: 2, expired: 3, failed: 4 } as const;

/** IPO applications (SPEC §4): pending until the operator allots or refunds; sales rows are 1. */
export const IPO_STATUS = { pending: 1, allotted: 2, refunded: 3, sold: 1 } as const;
/** SPEC §2/§4: an IPO order of status 0 (a reading this server never writes) or 2 shows its quantity. */
export const IPO_QUANTITY_STATUSES: readonly number[] = [0, IPO_STATUS.allotted];

/** Block/QIP orders (SPEC §4): filled at once, so a recorded order is a success (1); 2 is failed. */
export const BLOCK_STATUS = { success: 1, failed: 2 } as const;

/** Fund orders (SPEC §4): active (waiting for its NAV), completed, cancelled. */
export const FUND_ORDER_STATUS = {
  active: 'active',
  completed: 'completed',
  cancelled: 'cancelled',
} as const;

/** Block-trading items and fund products (SPEC §3): 1 on offer; anything else is closed. */
export const OFFER_STATUS = { open: 1 } as const;

/** Bank cards (SPEC §3): 1 usable. */
export const BANK_CARD_STATUS = { usable: 1 } as const;

/** Real-name verification (SPEC §4): 0 none, 1 under review, 2 approved, 3 rejected (editable again). */
export const KYC_STATUS = { none: 0, underReview: 1, approved: 2, rejected: 3 } as const;
export type KycStatus = (typeof KYC_STATUS)[keyof typeof KYC_STATUS];
