/**
 * The back office's API, written once for the server (server/backoffice) and the back office's
 * app (src/backoffice): every call's method, path under `<API_BASE>/ops`, the capability it needs,
 * whether it needs a fresh second factor, its request's schema (TypeBox: the server validates with
 * it, and the request's type is the schema's) and its answer's type. The customer app never
 * imports this file (the build checks that nothing of the back office is in its bundle). The back
 * office's app imports it at run time for method and path, schemas included: TypeBox is in the
 * back office's bundle, not the customer app's (src/backoffice/README.md says why).
 */

export * from './backoffice-types';

import type { Static, TSchema } from '@sinclair/typebox';
// The builders one by one (`* as`), not TypeBox's `Type` object, which holds every builder: the
// back office's bundle keeps only those used (+2 kB gzip instead of +12 kB; src/backoffice/README.md).
import * as Type from '@sinclair/typebox';
import type {
  AccountAction,
  AllotmentPreview,
  ApprovalView,
  AuditRow,
  Capability,
  ChatLine,
  ChatSummary,
  ChatThread,
  CustomerHit,
  CustomerPage,
  CustomerView,
  Deposits,
  FxPreview,
  FxState,
  IpoRow,
  KycCase,
  LoanRow,
  Me,
  NewsRow,
  PayoutApprovalView,
  Payouts,
  Queues,
  SignedIn,
  StaffRow,
  Stage,
} from './backoffice-types';
import {
  ACCOUNT_ACTIONS,
  KYC_REJECTION_REASONS,
  PAYOUT_REJECTION_REASONS,
  ROLES,
  WORK_TYPES,
} from './backoffice-types';
import type { Call, ReqOf, ResOf } from './contract/define';
import { Epoch, OneOf, RowId, Strict, Text } from './contract/schemas';

/** One call of the back office's API: the contract's `Call` (src/shared/contract/define.ts) and who may make it. */
export interface OpsEndpoint<Req extends TSchema = TSchema, Res = unknown> extends Call<Req, Res> {
  /** `public`: no session (sign-in steps); `session`: any stage the call names in `stages`. */
  cap: Capability | 'public' | 'session';
  /** Session stages that may call it (default: only `full`). */
  stages?: readonly Stage[];
  /** Needs a second factor given within OPS_STEP_UP_MS. */
  stepUp?: boolean;
  /** Answers bytes (a photo, a CSV), not the JSON envelope. */
  raw?: boolean;
}

/** `ops<Answer>()({ ... })`: the answer type is given, the request type is the schema's. */
const ops =
  <Res>() =>
  <Req extends TSchema>(def: Omit<OpsEndpoint<Req, Res>, 'res'>): OpsEndpoint<Req, Res> =>
    def;

const Empty = Strict({});
const ById = Strict({ id: RowId });
const ByUser = Strict({ userId: RowId });
/** An admin's reason for deciding an item someone else claimed (server/approvals/people.ts). */
const Override = Type.Optional(Type.String({ maxLength: 500 }));
const Decide = Strict({ id: RowId, override: Override });
const Optional = Type.Optional;
/** A decimal as typed (a rate, a ratio): the handler reads it with its own rule and error key. */
const Decimal = Type.String({ minLength: 1, maxLength: 16 });
const Code = Type.String({ minLength: 6, maxLength: 12 });
/** A WebAuthn answer as JSON: the passkey library reads it. */
const WebAuthnJson = Type.Object({}, { additionalProperties: true });
const Proof = Type.Union([Strict({ code: Code }), Strict({ passkey: WebAuthnJson })]);
const AuditFilter = {
  actor: Optional(Text(80)),
  action: Optional(Text(80)),
  customer: Optional(RowId),
  from: Optional(Epoch),
  to: Optional(Epoch),
};
const Draft = Strict({
  title: Text(300),
  subhead: Type.String({ maxLength: 600 }),
  html: Text(100_000),
  img: Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  /** Epoch ms; absent or past: now. */
  publishAt: Optional(Type.Union([Epoch, Type.Null()])),
});

/** A second factor's proof: an authenticator code or a passkey's answer (WebAuthn JSON). */
export type FactorProof = Static<typeof Proof>;
export type NewsDraft = Static<typeof Draft>;

export const OPS_API = {
  // Signing in (the only calls without a full session).
  login: ops<SignedIn>()({
    method: 'POST',
    path: '/auth/login',
    cap: 'public',
    req: Strict({ login: Text(64), password: Text(256) }),
  }),
  enrol: ops<SignedIn>()({
    method: 'POST',
    path: '/auth/enrol',
    cap: 'public',
    req: Strict({ token: Type.String({ minLength: 20, maxLength: 128 }), password: Text(256) }),
  }),
  totpBegin: ops<{ secret: string; uri: string }>()({
    method: 'POST',
    path: '/auth/totp/begin',
    cap: 'session',
    stages: ['enrol'],
    req: Empty,
  }),
  totpConfirm: ops<{ stage: Stage }>()({
    method: 'POST',
    path: '/auth/totp/confirm',
    cap: 'session',
    stages: ['enrol'],
    req: Strict({ code: Code }),
  }),
  passkeyRegisterOptions: ops<unknown>()({
    method: 'POST',
    path: '/auth/passkey/register-options',
    cap: 'session',
    stages: ['enrol'],
    req: Empty,
  }),
  passkeyRegister: ops<{ stage: Stage }>()({
    method: 'POST',
    path: '/auth/passkey/register',
    cap: 'session',
    stages: ['enrol'],
    req: Strict({ response: WebAuthnJson }),
  }),
  passkeyOptions: ops<unknown>()({
    method: 'POST',
    path: '/auth/passkey/options',
    cap: 'session',
    stages: ['verify', 'full'],
    req: Empty,
  }),
  /** The second step of a sign-in, and the step-up of a full session. */
  verify: ops<{ stage: Stage; freshUntil: number }>()({
    method: 'POST',
    path: '/auth/verify',
    cap: 'session',
    stages: ['verify', 'full'],
    req: Proof,
  }),
  logout: ops<null>()({
    method: 'POST',
    path: '/auth/logout',
    cap: 'session',
    stages: ['enrol', 'verify', 'full'],
    req: Empty,
  }),
  me: ops<Me>()({
    method: 'GET',
    path: '/me',
    cap: 'session',
    stages: ['enrol', 'verify', 'full'],
    req: Empty,
  }),

  queues: ops<Queues>()({ method: 'GET', path: '/queues', cap: 'work', req: Empty }),
  /** The queue (every waiting item, most overdue first) as CSV. */
  queuesCsv: ops<Blob>()({ method: 'GET', path: '/queues/csv', cap: 'work', raw: true, req: Empty }),
  claim: ops<null>()({
    method: 'POST',
    path: '/queues/claim',
    cap: 'work',
    req: Strict({
      type: OneOf(WORK_TYPES),
      id: Text(32),
      staffId: Optional(Type.Union([RowId, Type.Null()])),
    }),
  }),
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
      text: Optional(Type.String({ maxLength: 500 })),
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

  ipos: ops<IpoRow[]>()({ method: 'GET', path: '/ipos', cap: 'work', req: Empty }),
  ipoPreview: ops<AllotmentPreview>()({
    method: 'GET',
    path: '/ipos/preview',
    cap: 'work',
    req: Strict({ id: RowId, ratio: Decimal }),
  }),
  ipoPropose: ops<AllotmentPreview>()({
    method: 'POST',
    path: '/ipos/propose',
    cap: 'pay',
    req: Strict({ id: RowId, ratio: Decimal }),
  }),
  ipoRun: ops<{ allotted: number; refunded: number }>()({
    method: 'POST',
    path: '/ipos/run',
    cap: 'approve',
    stepUp: true,
    req: Strict({ id: RowId, proposal: RowId, override: Override }),
  }),

  fx: ops<FxState>()({ method: 'GET', path: '/fx', cap: 'work', req: Empty }),
  fxPreview: ops<FxPreview>()({
    method: 'GET',
    path: '/fx/preview',
    cap: 'approve',
    req: Strict({ rate: Decimal }),
  }),
  fxSet: ops<FxState>()({
    method: 'POST',
    path: '/fx',
    cap: 'approve',
    stepUp: true,
    req: Strict({ rate: Decimal }),
  }),

  news: ops<NewsRow[]>()({ method: 'GET', path: '/news', cap: 'news', req: Empty }),
  newsPreview: ops<{ title: string; subhead: string; html: string }>()({
    method: 'POST',
    path: '/news/preview',
    cap: 'news',
    req: Draft,
  }),
  newsPublish: ops<NewsRow>()({ method: 'POST', path: '/news', cap: 'news', req: Draft }),
  newsCancel: ops<null>()({ method: 'POST', path: '/news/cancel', cap: 'news', req: ById }),

  chats: ops<ChatSummary[]>()({
    method: 'GET',
    path: '/chats',
    cap: 'chat',
    req: Strict({ box: OneOf(['mine', 'unassigned', 'all']) }),
  }),
  chat: ops<ChatThread>()({
    method: 'GET',
    path: '/chats/thread',
    cap: 'chat',
    req: Strict({ userId: RowId, after: Optional(Type.Integer({ minimum: 0 })) }),
  }),
  chatReply: ops<ChatLine>()({
    method: 'POST',
    path: '/chats/reply',
    cap: 'chat',
    req: Strict({ userId: RowId, body: Text(2000) }),
  }),
  chatAssign: ops<null>()({
    method: 'POST',
    path: '/chats/assign',
    cap: 'chat',
    req: Strict({ userId: RowId, staffId: Type.Union([RowId, Type.Null()]) }),
  }),
  chatTyping: ops<null>()({ method: 'POST', path: '/chats/typing', cap: 'chat', req: ByUser }),
  canned: ops<Array<{ id: number; title: string; body: string }>>()({
    method: 'GET',
    path: '/chats/canned',
    cap: 'chat',
    req: Empty,
  }),

  audit: ops<{ rows: AuditRow[]; next: number | null }>()({
    method: 'GET',
    path: '/audit',
    cap: 'audit',
    req: Strict({ ...AuditFilter, before: Optional(RowId) }),
  }),
  auditCsv: ops<Blob>()({
    method: 'GET',
    path: '/audit/csv',
    cap: 'audit',
    raw: true,
    req: Strict(AuditFilter),
  }),
  auditVerify: ops<{
    entries: number;
    ok: boolean;
    brokenAt: number | null;
    problem: string | null;
    problems: string[];
    signedHead: { seq: number; at: number } | null;
    unsealed: number;
  }>()({ method: 'GET', path: '/audit/verify', cap: 'audit', req: Empty }),
  ledgerAudit: ops<{ ok: boolean; text: string; problems: number }>()({
    method: 'POST',
    path: '/audit/ledger',
    cap: 'audit',
    req: Empty,
  }),

  staff: ops<StaffRow[]>()({ method: 'GET', path: '/staff', cap: 'staff', req: Empty }),
  /** The enrolment link goes to `contact`, never into the answer (`sentTo`: the masked address). */
  staffAdd: ops<{ staff: StaffRow; sentTo: string }>()({
    method: 'POST',
    path: '/staff',
    cap: 'staff',
    stepUp: true,
    req: Strict({ login: Text(32), name: Text(80), role: OneOf(ROLES), contact: Text(254) }),
  }),
  /** A member who lost their factor: factors and sessions end, a new link goes to their contact. */
  staffReenrol: ops<{ staff: StaffRow; sentTo: string }>()({
    method: 'POST',
    path: '/staff/reenrol',
    cap: 'staff',
    stepUp: true,
    req: ById,
  }),
  staffRole: ops<StaffRow>()({
    method: 'POST',
    path: '/staff/role',
    cap: 'staff',
    stepUp: true,
    req: Strict({ id: RowId, role: OneOf(ROLES) }),
  }),
  staffDisable: ops<StaffRow>()({
    method: 'POST',
    path: '/staff/disable',
    cap: 'staff',
    stepUp: true,
    req: ById,
  }),
} as const;

export type OpsApi = typeof OPS_API;
export type OpsName = keyof OpsApi;
export type OpsReq<N extends OpsName> = ReqOf<OpsApi[N]>;
export type OpsRes<N extends OpsName> = ResOf<OpsApi[N]>;

/** Why a withdrawal waits for staff (its `hold`, wallet/withdraw.ts), as the console says it. */
export const HOLD_LABEL: Record<string, string> = {
  'wallet.hold.newCard': 'Card added or changed in the last 24 h',
  'wallet.hold.securityChange': 'Second factor changed or password reset in the last 24 h',
  'wallet.hold.review': 'Above the approval threshold',
};

/** The API's base under the customer API's (`/api` → `/api/ops`). */
export const OPS_PREFIX = '/ops';

/** Where the back office's pages are served. */
export const OPS_PAGES = '/ops/';

/** The back office's refusals in English (its app and the console say them; staff work in English). */
export const OPS_MESSAGES: Record<string, string> = {
  'ops.errors.forbidden': 'Your role does not allow this.',
  'ops.errors.factorNeeded': 'Give your second factor first.',
  'ops.errors.stepUp': 'Confirm it is you: give your second factor again.',
  'ops.errors.signIn': 'Wrong login or password.',
  'ops.errors.enrolment': 'This enrolment link has been used or has expired. Ask an admin for a new one.',
  'ops.errors.password': 'Use a password of 12 to 128 characters.',
  'ops.errors.login': 'A login is 3 to 32 lower-case letters, digits, dots, dashes or underscores.',
  'ops.errors.loginTaken': 'That login is taken.',
  'ops.errors.role': 'Unknown role.',
  'ops.errors.ownAction': 'Nobody approves their own action: another member of staff must do this.',
  'ops.errors.makerRelated':
    'You were added or re-enrolled by whoever asked for this (or by someone they added) in the last 30 days: another member must approve it.',
  'ops.errors.consoleChecks':
    'The console can ask for a decision but never give the second approval: a member of staff approves it in the back office.',
  'ops.errors.claimedByOther':
    'Someone else has claimed this item: only they, or an admin giving a reason, can decide it.',
  'ops.errors.overrideReason':
    'Someone else has claimed this item: give the reason you are deciding it instead.',
  'ops.errors.contact': 'Give the member’s own e-mail address: their enrolment link goes there.',
  'ops.errors.noContact': 'This member has no contact address to send a new link to: add them again.',
  'ops.errors.notWaiting': 'It is no longer waiting for this decision (someone may have decided it already).',
  'ops.errors.awaitingApproval': 'This payout is already waiting for a second approval.',
  'ops.errors.approvalVoid':
    'The payout changed after it was asked for (amount, card or customer), so the approval is void. Nothing was paid.',
  'ops.errors.needsApproval':
    'Above the approval threshold a payout needs two people: use Pay, then a second approval.',
  'ops.errors.claimed': 'Someone else has taken this item.',
  'ops.errors.reason': 'Choose a reason.',
  'ops.errors.reasonText': 'Write the reason the customer will read.',
  'ops.errors.ratio': 'A ratio is a decimal from 0 to 1, such as 0.5.',
  'ops.errors.rate': 'Give the rate as a positive decimal with at most 4 places, such as 88.25.',
  'ops.errors.nothingToAllot': 'There are no pending applications to allot.',
  'ops.errors.newsTitle': 'A title of 1 to 200 characters is required.',
  'ops.errors.newsSubhead': 'The subhead is longer than 400 characters.',
  'ops.errors.newsEmpty': 'The article has no content left after sanitising.',
  'ops.errors.newsImage': 'An image is the path of a picture on this site, such as /news/picture.jpg.',
  'ops.errors.noteEmpty': 'Write the note first.',
  'ops.errors.accountAction': 'Unknown account control.',
  'ops.errors.alreadyFrozen': 'This customer is frozen already.',
  'ops.errors.notFrozen': 'This customer is not frozen.',
  'ops.errors.noFactor': 'This customer has no second factor to reset.',
  'ops.errors.controlAwaiting':
    'A control over this account is already waiting for a second approval: approve or reject it first.',
  'ops.errors.controlVoid':
    'The account changed after the control was asked for, so the approval is void. Nothing was done.',
  'ops.errors.reasonNeeded': 'Write the reason (it goes to the audit log).',
  'ops.errors.customerFrozen':
    'This customer is frozen: nothing is paid out until two members unfreeze them. A rejection (refund) is still possible.',
  'errors.sessionExpired': 'Your session has ended. Sign in again.',
  'errors.tooManyAttempts': 'Too many attempts. Wait 15 minutes and try again.',
  'errors.codeWrong': 'That code is not right.',
  'errors.codeFormat': 'A code is 6 digits.',
  'errors.codeUsed': 'That code was used already: wait for the next one.',
  'errors.passkeyRefused': 'The passkey was not accepted. Try again.',
  'errors.passkeyNone': 'No passkey is set up for you.',
  'errors.passkeyUnknown': 'That passkey is not yours.',
  'errors.passkeyFlagged': 'That passkey looks copied and is blocked. Ask an admin.',
  'errors.passkeyExists': 'That passkey is set up already.',
  'errors.totpAlreadyOn': 'An authenticator app is set up already.',
  'errors.totpNotSetUp': 'Start the authenticator setup again.',
  'errors.proofMissing': 'Give a code or use your passkey.',
  'errors.notFound': 'Not found.',
  'errors.invalidInput': 'Something in the form is not valid.',
  'errors.messageEmpty': 'Write a message first.',
  'errors.insufficientFunds': 'The customer’s balance does not cover it.',
  // What the server's shared layers answer any caller (tests/server/fuzz-ops.test.ts found the first).
  'errors.requestTooLarge': 'The request is too large.',
  'errors.busy': 'The server is busy. Try again in a moment.',
  'errors.totpPending':
    'An authenticator app is being set up in another session. Finish it there, or try again in 10 minutes.',
  'errors.enrolEnded': 'This setup has ended: you have a second factor now. Sign in with it.',
  'errors.server': 'The server failed to answer. Try again; if it goes on, tell an admin.',
  'errors.unavailable': 'The server cannot reach its database. Try again in a moment.',
};
