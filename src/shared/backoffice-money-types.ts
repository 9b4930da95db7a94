/**
 * The back office's money desk as types: payouts and their approvals, a maker's request another
 * member checks, deposits waiting for the bank statement, loan applications and IPO allotment.
 * Re-exported by backoffice-types.ts (the rest of OPS_API's answers); types only.
 */

import type { CardView, CustomerName } from './backoffice-types';

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

export interface PayoutApprovalView {
  id: number;
  withdrawalId: number;
  amount: string;
  status: string;
  maker: string;
  makerName: string;
  createdAt: number;
  checkerName: string | null;
  decidedAt: number | null;
  /** The payout still is what the maker asked for (amount, card, customer). */
  intact: boolean;
}

/** A maker's request another member checks (a loan above LOAN_APPROVAL_ABOVE, an account decision). */
export interface ApprovalView {
  id: number;
  kind: string;
  targetId: string;
  amount: string | null;
  detail: Record<string, unknown> | null;
  status: string;
  maker: string;
  makerName: string;
  createdAt: number;
  checkerName: string | null;
  decidedAt: number | null;
  /** The target still is what the maker asked about. */
  intact: boolean;
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

export interface AllotmentLine {
  orderId: number;
  userId: number;
  phone: string;
  applied: number;
  allotted: number;
  frozen: string;
  charged: string;
  refund: string;
}
export interface AllotmentPreview {
  ipoId: number;
  symbol: string;
  ratio: string;
  lines: AllotmentLine[];
  totals: { applications: number; applied: number; allotted: number; charged: string; refund: string };
  proposal: {
    id: number;
    ratio: string;
    proposedBy: string;
    proposedName: string;
    proposedAt: number;
    intact: boolean;
  } | null;
}
export interface IpoRow {
  id: number;
  symbol: string;
  company: string;
  status: string;
  issueEnd: number;
  pendingApplications: number;
  pendingShares: number;
  frozen: string;
  proposal: AllotmentPreview['proposal'];
}
