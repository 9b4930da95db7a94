/**
 * The back office's API, written once for the server (server/backoffice) and the back
 * office's app (src/backoffice): every call's method, path under `<API_BASE>/ops`, the capability
 * it needs and whether it needs a fresh second factor, with its request and answer types. The
 * customer app never imports this file (the build checks that nothing of the back office is in its
 * bundle). Plain data: the back office's app imports it at run time without a schema library.
 */

export * from './backoffice-types';

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
  FactorProof,
  FxPreview,
  FxState,
  Id,
  IpoRow,
  KycCase,
  KycRejectionReason,
  LoanRow,
  Me,
  NewsDraft,
  NewsRow,
  PayoutApprovalView,
  Payouts,
  Queues,
  Role,
  SignedIn,
  StaffRow,
  Stage,
  UserId,
  WorkType,
} from './backoffice-types';

interface Def<Req, Res> {
  method: 'GET' | 'POST';
  path: string;
  /** `public`: no session (sign-in steps); `session`: any stage the call names in `stages`. */
  cap: Capability | 'public' | 'session';
  /** Session stages that may call it (default: only `full`). */
  stages?: readonly Stage[];
  /** Needs a second factor given within OPS_STEP_UP_MS. */
  stepUp?: boolean;
  /** Answers bytes (a photo, a CSV), not the JSON envelope. */
  raw?: boolean;
  readonly req?: Req;
  readonly res?: Res;
}
const def = <Req, Res>(d: Omit<Def<Req, Res>, 'req' | 'res'>): Def<Req, Res> => d;

type Empty = Record<string, never>;
/** A decision's input may carry an admin's reason for deciding an item someone else claimed. */
type Decide = { override?: string };

export const OPS_API = {
  // Signing in (the only calls without a full session).
  login: def<{ login: string; password: string }, SignedIn>({
    method: 'POST',
    path: '/auth/login',
    cap: 'public',
  }),
  enrol: def<{ token: string; password: string }, SignedIn>({
    method: 'POST',
    path: '/auth/enrol',
    cap: 'public',
  }),
  totpBegin: def<Empty, { secret: string; uri: string }>({
    method: 'POST',
    path: '/auth/totp/begin',
    cap: 'session',
    stages: ['enrol'],
  }),
  totpConfirm: def<{ code: string }, { stage: Stage }>({
    method: 'POST',
    path: '/auth/totp/confirm',
    cap: 'session',
    stages: ['enrol'],
  }),
  passkeyRegisterOptions: def<Empty, unknown>({
    method: 'POST',
    path: '/auth/passkey/register-options',
    cap: 'session',
    stages: ['enrol'],
  }),
  passkeyRegister: def<{ response: unknown }, { stage: Stage }>({
    method: 'POST',
    path: '/auth/passkey/register',
    cap: 'session',
    stages: ['enrol'],
  }),
  passkeyOptions: def<Empty, unknown>({
    method: 'POST',
    path: '/auth/passkey/options',
    cap: 'session',
    stages: ['verify', 'full'],
  }),
  /** The second step of a sign-in, and the step-up of a full session. */
  verify: def<FactorProof, { stage: Stage; freshUntil: number }>({
    method: 'POST',
    path: '/auth/verify',
    cap: 'session',
    stages: ['verify', 'full'],
  }),
  logout: def<Empty, null>({
    method: 'POST',
    path: '/auth/logout',
    cap: 'session',
    stages: ['enrol', 'verify', 'full'],
  }),
  me: def<Empty, Me>({ method: 'GET', path: '/me', cap: 'session', stages: ['enrol', 'verify', 'full'] }),

  queues: def<Empty, Queues>({ method: 'GET', path: '/queues', cap: 'work' }),
  /** The queue (every waiting item, most overdue first) as CSV. */
  queuesCsv: def<Empty, Blob>({ method: 'GET', path: '/queues/csv', cap: 'work', raw: true }),
  claim: def<{ type: WorkType; id: string; staffId?: number | null }, null>({
    method: 'POST',
    path: '/queues/claim',
    cap: 'work',
  }),
  customerSearch: def<{ q: string }, CustomerHit[]>({ method: 'GET', path: '/customers', cap: 'work' }),
  /** Newest first, 50 a page; `kyc`: one real-name status (0: never submitted). */
  customerList: def<{ kyc?: number; before?: number }, CustomerPage>({
    method: 'GET',
    path: '/customers/list',
    cap: 'work',
  }),
  /** One customer's ledger as CSV: every posting with its reason in words. */
  statementCsv: def<{ userId: number; from?: number; to?: number }, Blob>({
    method: 'GET',
    path: '/customers/statement/csv',
    cap: 'work',
    raw: true,
  }),
  customer: def<Id, CustomerView>({ method: 'GET', path: '/customers/view', cap: 'work' }),
  noteAdd: def<{ userId: number; body: string }, null>({
    method: 'POST',
    path: '/customers/notes',
    cap: 'work',
  }),
  /** A freeze, unfreeze or factor reset asked for, with the reason: another member approves it. */
  accountRequest: def<{ userId: number; action: AccountAction; reason: string }, ApprovalView>({
    method: 'POST',
    path: '/customers/control',
    cap: 'work',
    stepUp: true,
  }),
  accountApprove: def<UserId & Decide, { action: AccountAction; sessionsEnded: number }>({
    method: 'POST',
    path: '/customers/control/approve',
    cap: 'approve',
    stepUp: true,
  }),
  /** The waiting control withdrawn (its maker) or turned down (anyone else), with the reason. */
  accountReject: def<{ userId: number; reason: string } & Decide, null>({
    method: 'POST',
    path: '/customers/control/reject',
    cap: 'work',
  }),
  /** Every session of the customer ends now: one member's action, with the reason. */
  sessionsEnd: def<{ userId: number; reason: string }, { sessionsEnded: number }>({
    method: 'POST',
    path: '/customers/sessions/end',
    cap: 'work',
    stepUp: true,
  }),

  kycList: def<Empty, KycCase[]>({ method: 'GET', path: '/kyc', cap: 'kyc' }),
  kycCase: def<UserId, KycCase>({ method: 'GET', path: '/kyc/case', cap: 'kyc' }),
  kycPhoto: def<{ userId: number; side: 'front' | 'back' }, Blob>({
    method: 'GET',
    path: '/kyc/photo',
    cap: 'kyc',
    raw: true,
  }),
  kycApprove: def<UserId & Decide, null>({ method: 'POST', path: '/kyc/approve', cap: 'kyc', stepUp: true }),
  kycReject: def<{ userId: number; reason: KycRejectionReason; text?: string } & Decide, null>({
    method: 'POST',
    path: '/kyc/reject',
    cap: 'kyc',
  }),

  payouts: def<Empty, Payouts>({ method: 'GET', path: '/payouts', cap: 'work' }),
  payoutPay: def<Id & Decide, { paid: boolean; approval: PayoutApprovalView | null }>({
    method: 'POST',
    path: '/payouts/pay',
    cap: 'pay',
    stepUp: true,
  }),
  payoutReject: def<{ id: number; reason: string; text?: string } & Decide, null>({
    method: 'POST',
    path: '/payouts/reject',
    cap: 'pay',
  }),
  /** The payouts waiting (as the page lists them) as CSV. */
  payoutsCsv: def<Empty, Blob>({ method: 'GET', path: '/payouts/csv', cap: 'work', raw: true }),
  payoutRelease: def<Id & Decide, null>({ method: 'POST', path: '/payouts/release', cap: 'pay' }),
  payoutApprove: def<Id & Decide, { paid: boolean }>({
    method: 'POST',
    path: '/payouts/approve',
    cap: 'approve',
    stepUp: true,
  }),

  deposits: def<Empty, Deposits>({ method: 'GET', path: '/deposits', cap: 'work' }),
  depositConfirm: def<Id & Decide, { credited: boolean; approval: ApprovalView | null }>({
    method: 'POST',
    path: '/deposits/confirm',
    cap: 'pay',
    stepUp: true,
  }),
  depositReject: def<{ id: number; text: string } & Decide, null>({
    method: 'POST',
    path: '/deposits/reject',
    cap: 'pay',
  }),
  depositApprove: def<Id & Decide, { credited: boolean }>({
    method: 'POST',
    path: '/deposits/approve',
    cap: 'approve',
    stepUp: true,
  }),

  loans: def<Empty, LoanRow[]>({ method: 'GET', path: '/loans', cap: 'work' }),
  loanApprove: def<Id & Decide, { disbursed: boolean; approval: ApprovalView | null }>({
    method: 'POST',
    path: '/loans/approve',
    cap: 'approve',
    stepUp: true,
  }),
  loanReject: def<{ id: number; text: string } & Decide, null>({
    method: 'POST',
    path: '/loans/reject',
    cap: 'approve',
  }),

  ipos: def<Empty, IpoRow[]>({ method: 'GET', path: '/ipos', cap: 'work' }),
  ipoPreview: def<{ id: number; ratio: string }, AllotmentPreview>({
    method: 'GET',
    path: '/ipos/preview',
    cap: 'work',
  }),
  ipoPropose: def<{ id: number; ratio: string }, AllotmentPreview>({
    method: 'POST',
    path: '/ipos/propose',
    cap: 'pay',
  }),
  ipoRun: def<{ id: number; proposal: number } & Decide, { allotted: number; refunded: number }>({
    method: 'POST',
    path: '/ipos/run',
    cap: 'approve',
    stepUp: true,
  }),

  fx: def<Empty, FxState>({ method: 'GET', path: '/fx', cap: 'work' }),
  fxPreview: def<{ rate: string }, FxPreview>({ method: 'GET', path: '/fx/preview', cap: 'approve' }),
  fxSet: def<{ rate: string }, FxState>({ method: 'POST', path: '/fx', cap: 'approve', stepUp: true }),

  news: def<Empty, NewsRow[]>({ method: 'GET', path: '/news', cap: 'news' }),
  newsPreview: def<NewsDraft, { title: string; subhead: string; html: string }>({
    method: 'POST',
    path: '/news/preview',
    cap: 'news',
  }),
  newsPublish: def<NewsDraft, NewsRow>({ method: 'POST', path: '/news', cap: 'news' }),
  newsCancel: def<Id, null>({ method: 'POST', path: '/news/cancel', cap: 'news' }),

  chats: def<{ box: 'mine' | 'unassigned' | 'all' }, ChatSummary[]>({
    method: 'GET',
    path: '/chats',
    cap: 'chat',
  }),
  chat: def<UserId & { after?: number }, ChatThread>({ method: 'GET', path: '/chats/thread', cap: 'chat' }),
  chatReply: def<{ userId: number; body: string }, ChatLine>({
    method: 'POST',
    path: '/chats/reply',
    cap: 'chat',
  }),
  chatAssign: def<{ userId: number; staffId: number | null }, null>({
    method: 'POST',
    path: '/chats/assign',
    cap: 'chat',
  }),
  chatTyping: def<UserId, null>({ method: 'POST', path: '/chats/typing', cap: 'chat' }),
  canned: def<Empty, Array<{ id: number; title: string; body: string }>>({
    method: 'GET',
    path: '/chats/canned',
    cap: 'chat',
  }),

  audit: def<
    { actor?: string; action?: string; customer?: number; from?: number; to?: number; before?: number },
    { rows: AuditRow[]; next: number | null }
  >({ method: 'GET', path: '/audit', cap: 'audit' }),
  auditCsv: def<{ actor?: string; action?: string; customer?: number; from?: number; to?: number }, Blob>({
    method: 'GET',
    path: '/audit/csv',
    cap: 'audit',
    raw: true,
  }),
  auditVerify: def<
    Empty,
    {
      entries: number;
      ok: boolean;
      brokenAt: number | null;
      problem: string | null;
      problems: string[];
      signedHead: { seq: number; at: number } | null;
      unsealed: number;
    }
  >({
    method: 'GET',
    path: '/audit/verify',
    cap: 'audit',
  }),
  ledgerAudit: def<Empty, { ok: boolean; text: string; problems: number }>({
    method: 'POST',
    path: '/audit/ledger',
    cap: 'audit',
  }),

  staff: def<Empty, StaffRow[]>({ method: 'GET', path: '/staff', cap: 'staff' }),
  /** The enrolment link goes to `contact`, never into the answer (`sentTo`: the masked address). */
  staffAdd: def<
    { login: string; name: string; role: Role; contact: string },
    { staff: StaffRow; sentTo: string }
  >({
    method: 'POST',
    path: '/staff',
    cap: 'staff',
    stepUp: true,
  }),
  /** A member who lost their factor: factors and sessions end, a new link goes to their contact. */
  staffReenrol: def<Id, { staff: StaffRow; sentTo: string }>({
    method: 'POST',
    path: '/staff/reenrol',
    cap: 'staff',
    stepUp: true,
  }),
  staffRole: def<{ id: number; role: Role }, StaffRow>({
    method: 'POST',
    path: '/staff/role',
    cap: 'staff',
    stepUp: true,
  }),
  staffDisable: def<Id, StaffRow>({ method: 'POST', path: '/staff/disable', cap: 'staff', stepUp: true }),
} as const;

export type OpsName = keyof typeof OPS_API;
export type OpsReq<N extends OpsName> = Exclude<(typeof OPS_API)[N]['req'], undefined>;
export type OpsRes<N extends OpsName> = Exclude<(typeof OPS_API)[N]['res'], undefined>;

/** The API's base under the customer API's (`/api` → `/api/ops`). */
/** Why a withdrawal waits for staff (its `hold`, wallet/withdraw.ts), as the console says it. */
export const HOLD_LABEL: Record<string, string> = {
  'wallet.hold.newCard': 'Card added or changed in the last 24 h',
  'wallet.hold.securityChange': 'Second factor changed or password reset in the last 24 h',
  'wallet.hold.review': 'Above the approval threshold',
};

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
};
