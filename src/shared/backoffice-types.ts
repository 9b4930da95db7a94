/**
 * The back office's answers and inputs as types: what each call of `OPS_API`
 * (src/shared/backoffice.ts) takes and returns. Types only: nothing here reaches a bundle.
 */

import type { AccountHero } from './contract/portfolio';

/** Staff roles. */
export const ROLES = ['support', 'kyc', 'payments', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What a role may do; every call names one (or `session`: any signed-in staff, `public`: none). */
export const CAPABILITIES = {
  /** Queues, claims, customer search and view, staff notes. */
  work: ['support', 'kyc', 'payments', 'approver', 'admin'],
  chat: ['support', 'admin'],
  kyc: ['kyc', 'admin'],
  /** Payouts (pay, reject, release), deposits (confirm, reject), IPO allotment proposals. */
  pay: ['payments', 'admin'],
  /** Second approvals, loan decisions, running an allotment, the FX rate. */
  approve: ['approver', 'admin'],
  news: ['support', 'admin'],
  audit: ['approver', 'admin'],
  staff: ['admin'],
} as const satisfies Record<string, readonly Role[]>;
export type Capability = keyof typeof CAPABILITIES;

export function roleCan(role: string, cap: Capability): boolean {
  return (CAPABILITIES[cap] as readonly string[]).includes(role);
}

/** The queue item types, each with its target time. */
export const WORK_TYPES = [
  'kyc',
  'deposit',
  'withdrawal',
  'approval',
  'loan',
  'ipo',
  'chat',
  /** A control over a customer's account awaiting its second approval (ACCOUNT_ACTIONS). */
  'account',
] as const;
export type WorkType = (typeof WORK_TYPES)[number];

/**
 * Controls over a customer's account that take two members of staff
 * (server/account/controls.ts): freeze (sessions end, money calls refused), unfreeze,
 * and reset of every second factor (sessions end, withdrawals held FACTOR_SETTLE_MS).
 */
export const ACCOUNT_ACTIONS = ['freeze', 'unfreeze', 'factorReset'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

/** The account's standing as the customer page shows it, with the control waiting, if any. */
export interface AccountStanding {
  frozenAt: number | null;
  sessions: number;
  factors: { totp: boolean; passkeys: number };
  /** The control waiting for a second member (`detail`: { action, reason }). */
  request: ApprovalView | null;
}

/** Real-name rejection reasons: the customer's app words each in its language (`realName.reasons.*`). */
export const KYC_REJECTION_REASONS = ['photos', 'unreadable', 'mismatch', 'expired', 'other'] as const;
export type KycRejectionReason = (typeof KYC_REJECTION_REASONS)[number];

/** Why a payout is rejected (refunded); told to nobody but the audit log and the customer view. */
export const PAYOUT_REJECTION_REASONS = [
  'cardMismatch',
  'suspectedFraud',
  'customerRequest',
  'other',
] as const;
export type PayoutRejectionReason = (typeof PAYOUT_REJECTION_REASONS)[number];

export type Stage = 'enrol' | 'verify' | 'full';

export interface Me {
  id: number;
  login: string;
  name: string;
  role: Role;
  stage: Stage;
  caps: Capability[];
  /** Until when the last second factor counts as fresh (0: never given or stale). */
  freshUntil: number;
  expiresAt: number;
  idleMs: number;
  factors: { totp: boolean; passkeys: number };
}

export interface SignedIn {
  token: string;
  stage: Stage;
  factors: { totp: boolean; passkeys: number };
}

/**
 * How staff name a customer (server/account/customer-names.ts): the real-name submission's name (verified
 * once approved), else their first bank card's holder, else none (staff see the phone).
 */
export interface CustomerName {
  name: string | null;
  nameFrom: 'kyc' | 'card' | null;
  kycStatus: number;
}

export interface QueueType {
  type: WorkType;
  count: number;
  oldestAt: number | null;
  /** How soon an item of this type should be taken up. */
  targetMs: number;
}
export interface QueueItem {
  type: WorkType;
  id: string;
  title: string;
  detail: string;
  /** The money the item is about (withdrawals, approvals, loans), as a decimal string. */
  amount: string | null;
  customerId: number | null;
  customerPhone: string | null;
  customerName: string | null;
  since: number;
  targetMs: number;
  claimedBy: { id: number; name: string } | null;
}
export interface Queues {
  now: number;
  types: QueueType[];
  /** Every type in one list, the most overdue (age ÷ target) first. */
  items: QueueItem[];
}

export interface CustomerRow {
  id: number;
  phone: string;
  no: string;
  /** `CustomerName`: the real-name submission's, else the first bank card holder's. */
  name: string | null;
  nameFrom: CustomerName['nameFrom'];
  kycStatus: number;
  balance: string;
  createdAt: number;
}

/** How a search found a customer (server/backoffice/customer-search.ts ranks them in this order). */
export type CustomerMatch =
  | 'phone'
  | 'card'
  | 'idNumber'
  | 'account'
  | 'phoneEnd'
  | 'cardEnd'
  | 'phoneStart'
  | 'name'
  | 'nameStart'
  | 'namePart';

export interface CustomerHit extends CustomerRow {
  matched: CustomerMatch;
}

/** A page of the customer list, newest first; `next`: the `before` of the following page. */
export interface CustomerPage {
  rows: CustomerRow[];
  next: number | null;
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

export interface AuditRow {
  seq: number;
  at: number;
  actor: string;
  actorName: string;
  role: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  customerId: number | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  hash: string;
}

export interface CustomerView {
  customer: CustomerRow & { creditScore: number; loan: string };
  identity: {
    status: number;
    realName: string | null;
    idType: string | null;
    idNumber: string | null;
    reason: string | null;
    note: string | null;
    updatedAt: number | null;
  } | null;
  identityHistory: AuditRow[];
  cards: CardView[];
  ledger: Array<{
    id: number;
    at: number;
    amount: string;
    balance: string;
    reason: string;
    auditSeq: number | null;
  }>;
  orders: Array<{
    id: number;
    no: string;
    mold: string;
    symbol: string;
    state: string;
    status: number;
    count: number;
    total: string;
    at: number;
  }>;
  /**
   * What the customer's app shows as its hero (portfolio/book.ts): available, reserved by line,
   * holdings at market, funds, loans due and the total that is their sum.
   */
  assets: AccountHero;
  /** Every position and lot, valued at the server's quotes (the app's Holdings). */
  holdings: Array<{
    symbol: string;
    name: string;
    type: string;
    qty: number;
    invested: string;
    value: string;
    /** A lot still locked in: until when. */
    lockedUntil: number | null;
  }>;
  loans: Array<{ id: number; amount: string; state: number; at: number }>;
  ipoApplications: Array<{
    id: number;
    symbol: string;
    count: number;
    amount: string;
    status: number;
    at: number;
  }>;
  withdrawals: PayoutRow[];
  chat: ChatLine[];
  notes: Array<{ id: number; body: string; by: string; at: number }>;
  pending: PayoutApprovalView[];
  standing: AccountStanding;
}

export interface KycCase {
  userId: number;
  phone: string;
  status: number;
  realName: string;
  idType: string;
  /** In full: the officer compares it with the photos. */
  idNumber: string;
  submittedAt: number;
  firstSubmittedAt: number;
  reason: string | null;
  note: string | null;
  history: AuditRow[];
  claimedBy: { id: number; name: string } | null;
  /** What the officer must not miss before deciding. */
  flags: KycFlag[];
}

/**
 * A warning on a real-name case: the same picture as front and back; the ID number approved, or
 * under review, for another customer (compared without case, spaces or dashes).
 */
export type KycFlag =
  | { code: 'samePhoto' }
  | { code: 'idNumberApproved' | 'idNumberInReview'; customers: Array<{ userId: number; name: string }> };

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

export interface FxState {
  source: string;
  rate: string | null;
  fresh: boolean;
  configured: string | null;
  configuredAt: number | null;
  /** The configured rate's distance from the live rate in use (basis points of it); null: not live. */
  gapBps: number | null;
}
export interface FxPreview {
  current: FxState;
  next: string;
  /** What a US$1,000 order and the customers' US holdings are worth at each rate. */
  example: { usd: string; now: string | null; next: string };
  holdings: { now: string | null; next: string };
  changeBps: number | null;
}

export interface NewsRow {
  id: number;
  title: string;
  subhead: string;
  publishAt: number;
  state: 'scheduled' | 'published' | 'cancelled';
  publishedId: number | null;
}

export interface ChatLine {
  id: number;
  sender: 'user' | 'agent';
  body: string;
  at: number;
  readAt: number | null;
  /** The account's automatic welcome, written by the server, not by a member of staff. */
  automatic: boolean;
}
export interface ChatSummary {
  userId: number;
  phone: string;
  name: string | null;
  last: string;
  lastAt: number;
  lastSender: 'user' | 'agent';
  /** The oldest customer message since the last reply (null: answered). */
  waitingSince: number | null;
  assignedTo: { id: number; name: string } | null;
  unread: number;
}
export interface ChatThread {
  userId: number;
  phone: string;
  name: string | null;
  messages: ChatLine[];
  assignedTo: { id: number; name: string } | null;
  customerTyping: boolean;
  waitingSince: number | null;
  /** Seconds from the conversation's first unanswered message to the first reply, once replied. */
  firstReplyMs: number | null;
}

export interface StaffRow {
  id: number;
  login: string;
  name: string;
  role: Role;
  enrolled: boolean;
  disabled: boolean;
  createdAt: number;
  /** Where their enrolment links go, masked (`a•••@example.com`). */
  contact: string | null;
  /** Who added them: `staff:<id>` or `cli:<operator>`. */
  createdBy: string;
}
