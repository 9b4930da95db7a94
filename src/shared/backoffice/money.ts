/** The money desk: payouts (withdrawals), deposits waiting for the bank statement, loan requests. */

import * as Type from '@sinclair/typebox';
import { OneOf, RowId, Strict, Text } from '../contract/schemas';
import { Decide, Empty, Override, ops } from './define';
import type { ApprovalView, CardView, CustomerName, PayoutApprovalView } from './views';

/** Why a payout is rejected (refunded); told to nobody but the audit log and the customer view. */
export const PAYOUT_REJECTION_REASONS = [
  'cardMismatch',
  'suspectedFraud',
  'customerRequest',
  'other',
] as const;
export type PayoutRejectionReason = (typeof PAYOUT_REJECTION_REASONS)[number];

/** Why a withdrawal waits for staff (its `hold`, wallet/withdraw.ts), as the console says it. */
export const HOLD_LABEL: Record<string, string> = {
  'wallet.hold.newCard': 'Card added or changed in the last 24 h',
  'wallet.hold.securityChange': 'Second factor changed or password reset in the last 24 h',
  'wallet.hold.review': 'Above the approval threshold',
};

export interface PayoutRow {
  id: number;
  userId: number;
  phone: string;
  customer: CustomerName;
  amount: string;
  status: string;
  hold: string | null;
  card: CardView;
  askedAt: number;
  /** The customer's payouts in the 24 h up to this one, this one included. */
  dayTotal: string;
  /** The day total is above PAYOUT_APPROVAL_ABOVE: a second person approves. */
  needsApproval: boolean;
  approval: PayoutApprovalView | null;
}

export interface Payouts {
  threshold: string;
  rows: PayoutRow[];
}

/** A recharge waiting for the money to be seen on the bank statement. */
export interface DepositRow {
  id: number;
  userId: number;
  phone: string;
  customer: CustomerName;
  amount: string;
  /** The bank reference (UTR) the customer gave, if any. */
  reference: string | null;
  method: string;
  askedAt: number;
  /** Above DEPOSIT_APPROVAL_ABOVE: a second person approves. */
  needsApproval: boolean;
  approval: ApprovalView | null;
  claimedBy: { id: number; name: string } | null;
}

export interface Deposits {
  threshold: string;
  rows: DepositRow[];
}

export interface LoanRow {
  id: number;
  userId: number;
  phone: string;
  customer: CustomerName;
  amount: string;
  creditScore: number;
  openLoans: string;
  askedAt: number;
  /** Above LOAN_APPROVAL_ABOVE: a second person approves. */
  needsApproval: boolean;
  approval: ApprovalView | null;
}

export const moneyOps = {
  payouts: ops<Payouts>()({ method: 'GET', path: '/payouts', cap: 'work', req: Empty }),
  payoutPay: ops<{ paid: boolean; approval: PayoutApprovalView | null }>()({
    method: 'POST',
    path: '/payouts/pay',
    cap: 'pay',
    stepUp: true,
    req: Decide,
  }),
  payoutReject: ops<null>()({
    method: 'POST',
    path: '/payouts/reject',
    cap: 'pay',
    req: Strict({
      id: RowId,
      reason: OneOf(PAYOUT_REJECTION_REASONS),
      text: Type.Optional(Type.String({ maxLength: 500 })),
      override: Override,
    }),
  }),
  /** The payouts waiting (as the page lists them) as CSV. */
  payoutsCsv: ops<Blob>()({ method: 'GET', path: '/payouts/csv', cap: 'work', raw: true, req: Empty }),
  payoutRelease: ops<null>()({ method: 'POST', path: '/payouts/release', cap: 'pay', req: Decide }),
  payoutApprove: ops<{ paid: boolean }>()({
    method: 'POST',
    path: '/payouts/approve',
    cap: 'approve',
    stepUp: true,
    req: Decide,
  }),

  deposits: ops<Deposits>()({ method: 'GET', path: '/deposits', cap: 'work', req: Empty }),
  depositConfirm: ops<{ credited: boolean; approval: ApprovalView | null }>()({
    method: 'POST',
    path: '/deposits/confirm',
    cap: 'pay',
    stepUp: true,
    req: Decide,
  }),
  depositReject: ops<null>()({
    method: 'POST',
    path: '/deposits/reject',
    cap: 'pay',
    req: Strict({ id: RowId, text: Text(500), override: Override }),
  }),
  depositApprove: ops<{ credited: boolean }>()({
    method: 'POST',
    path: '/deposits/approve',
    cap: 'approve',
    stepUp: true,
    req: Decide,
  }),

  loans: ops<LoanRow[]>()({ method: 'GET', path: '/loans', cap: 'work', req: Empty }),
  loanApprove: ops<{ disbursed: boolean; approval: ApprovalView | null }>()({
    method: 'POST',
    path: '/loans/approve',
    cap: 'approve',
    stepUp: true,
    req: Decide,
  }),
  loanReject: ops<null>()({
    method: 'POST',
    path: '/loans/reject',
    cap: 'approve',
    req: Strict({ id: RowId, text: Text(500), override: Override }),
  }),
} as const;
