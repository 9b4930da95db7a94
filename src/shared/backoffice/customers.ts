/** The customer desk: search and list, a customer's page, notes, controls over the account, real-name review. */

import * as Type from '@sinclair/typebox';
import type { AccountHero } from '../contract/portfolio';
import { Epoch, OneOf, RowId, Strict, Text } from '../contract/schemas';
import type { AuditRow } from './audit';
import type { ChatLine } from './content';
import { ById, ByUser, Empty, Override, ops } from './define';
import type { PayoutRow } from './money';
import type { ApprovalView, CardView, CustomerName, PayoutApprovalView } from './views';

/**
 * Controls over a customer's account that take two members of staff
 * (server/account/controls.ts): freeze (sessions end, money calls refused), unfreeze,
 * reset of every second factor (sessions end, withdrawals held FACTOR_SETTLE_MS), and reset of the
 * login password (it signs nobody in until the customer sets a new one with forgot-password;
 * sessions end, withdrawals held FACTOR_SETTLE_MS).
 */
export const ACCOUNT_ACTIONS = ['freeze', 'unfreeze', 'factorReset', 'passwordReset'] as const;
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

const Optional = Type.Optional;

export const customerOps = {
  customerSearch: ops<CustomerHit[]>()({
    method: 'GET',
    path: '/customers',
    cap: 'work',
    req: Strict({ q: Type.String({ maxLength: 80 }) }),
  }),
  /** Newest first, 50 a page; `kyc`: one real-name status (0: never submitted). */
  customerList: ops<CustomerPage>()({
    method: 'GET',
    path: '/customers/list',
    cap: 'work',
    req: Strict({ kyc: Optional(Type.Integer({ minimum: 0, maximum: 3 })), before: Optional(RowId) }),
  }),
  /** One customer's ledger as CSV: every posting with its reason in words. */
  statementCsv: ops<Blob>()({
    method: 'GET',
    path: '/customers/statement/csv',
    cap: 'work',
    raw: true,
    req: Strict({ userId: RowId, from: Optional(Epoch), to: Optional(Epoch) }),
  }),
  customer: ops<CustomerView>()({ method: 'GET', path: '/customers/view', cap: 'work', req: ById }),
  noteAdd: ops<null>()({
    method: 'POST',
    path: '/customers/notes',
    cap: 'work',
    req: Strict({ userId: RowId, body: Text(2000) }),
  }),
  /** A freeze, unfreeze or factor reset asked for, with the reason: another member approves it. */
  accountRequest: ops<ApprovalView>()({
    method: 'POST',
    path: '/customers/control',
    cap: 'work',
    stepUp: true,
    req: Strict({ userId: RowId, action: OneOf(ACCOUNT_ACTIONS), reason: Text(500) }),
  }),
  accountApprove: ops<{ action: AccountAction; sessionsEnded: number }>()({
    method: 'POST',
    path: '/customers/control/approve',
    cap: 'approve',
    stepUp: true,
    req: Strict({ userId: RowId, override: Override }),
  }),
  /** The waiting control withdrawn (its maker) or turned down (anyone else), with the reason. */
  accountReject: ops<null>()({
    method: 'POST',
    path: '/customers/control/reject',
    cap: 'work',
    req: Strict({ userId: RowId, reason: Text(500), override: Override }),
  }),
  /** Every session of the customer ends now: one member's action, with the reason. */
  sessionsEnd: ops<{ sessionsEnded: number }>()({
    method: 'POST',
    path: '/customers/sessions/end',
    cap: 'work',
    stepUp: true,
    req: Strict({ userId: RowId, reason: Text(500) }),
  }),

  kycList: ops<KycCase[]>()({ method: 'GET', path: '/kyc', cap: 'kyc', req: Empty }),
  kycCase: ops<KycCase>()({ method: 'GET', path: '/kyc/case', cap: 'kyc', req: ByUser }),
  kycPhoto: ops<Blob>()({
    method: 'GET',
    path: '/kyc/photo',
    cap: 'kyc',
    raw: true,
    req: Strict({ userId: RowId, side: OneOf(['front', 'back']) }),
  }),
  kycApprove: ops<null>()({
    method: 'POST',
    path: '/kyc/approve',
    cap: 'kyc',
    stepUp: true,
    req: Strict({ userId: RowId, override: Override }),
  }),
  kycReject: ops<null>()({
    method: 'POST',
    path: '/kyc/reject',
    cap: 'kyc',
    req: Strict({
      userId: RowId,
      reason: OneOf(KYC_REJECTION_REASONS),
      text: Optional(Type.String({ maxLength: 500 })),
      override: Override,
    }),
  }),
} as const;
