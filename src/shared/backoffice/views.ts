/**
 * What more than one desk shows (the customer page and the money desk): how staff name a
 * customer, a bank card, and a maker's request waiting for its checker. Types only.
 */

/**
 * How staff name a customer (server/account/customer-names.ts): the real-name submission's name (verified
 * once approved), else their first bank card's holder, else none (staff see the phone).
 */
export interface CustomerName {
  name: string | null;
  nameFrom: 'kyc' | 'card' | null;
  kycStatus: number;
}

export interface CardView {
  id: number;
  bank: string;
  card: string;
  holder: string;
  ifsc: string;
  status: number;
  addedAt: number;
  changedAt: number;
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
