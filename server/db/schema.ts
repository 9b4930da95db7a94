import type { ColumnType, Generated } from 'kysely';
import type { ChatMessage } from '#shared/contract/content';
import type { BankCard } from '#shared/contract/settings';
import type { FundCategory } from '#shared/funds';
import type { NoticeKind } from '#shared/notices';

/**
 * The database, as Kysely sees it. Money columns are integer minor units; prices are integer ticks
 * of 1/10,000 (src/shared/money.ts); times are epoch milliseconds. Both dialects share this shape.
 */
/**
 * A table whose rows are a contract row as the app receives it, stored with its owner (and any
 * columns of the server's own): the row's shape is written once, in the contract.
 */
type OwnedRows<Row extends { id: number }, Own = unknown> = Omit<Row, 'id'> & {
  id: Generated<number>;
  user_id: number;
} & Own;

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  invitation_codes: InvitationCodesTable;
  login_attempts: LoginAttemptsTable;
  ledger: LedgerTable;
  idempotency_keys: IdempotencyKeysTable;
  config: ConfigTable;
  news: NewsTable;
  watchlists: WatchlistsTable;
  watchlist_items: WatchlistItemsTable;
  alerts: AlertsTable;
  notifications: NotificationsTable;
  bank_cards: BankCardsTable;
  kyc: KycTable;
  loan_postings: LoanPostingsTable;
  uploads: UploadsTable;
  messages: MessagesTable;
  positions: PositionsTable;
  orders: OrdersTable;
  ipos: IposTable;
  block_items: BlockItemsTable;
  funds: FundsTable;
  fund_orders: FundOrdersTable;
  fund_positions: FundPositionsTable;
  recharges: RechargesTable;
  withdrawals: WithdrawalsTable;
  loans: LoansTable;
  ops_log: OpsLogTable;
  ledger_audits: LedgerAuditsTable;
  portfolio_snapshots: PortfolioSnapshotsTable;
  factor_passkeys: FactorPasskeysTable;
  factor_totp: FactorTotpTable;
  factor_recovery: FactorRecoveryTable;
  factor_challenges: FactorChallengesTable;
  known_devices: KnownDevicesTable;
  security_changes: SecurityChangesTable;
  staff: StaffTable;
  approvals: ApprovalsTable;
  staff_enrolments: StaffEnrolmentsTable;
  staff_sessions: StaffSessionsTable;
  audit_log: AuditLogTable;
  payout_approvals: PayoutApprovalsTable;
  work_claims: WorkClaimsTable;
  chat_threads: ChatThreadsTable;
  canned_replies: CannedRepliesTable;
  staff_notes: StaffNotesTable;
  news_scheduled: NewsScheduledTable;
  ipo_allotments: IpoAllotmentsTable;
  push_keys: PushKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  push_prefs: PushPrefsTable;
  push_outbox: PushOutboxTable;
  push_deliveries: PushDeliveriesTable;
}

interface UsersTable {
  id: Generated<number>;
  phone: string;
  password_hash: string;
  /** Public id shown in the app. */
  no: string;
  img: string | null;
  /** Available balance, minor units; CHECK (balance >= 0). Changed only by server/lib/ledger.ts. */
  balance: number;
  fund_password_hash: string | null;
  fund_password_fails: number;
  fund_password_locked_until: number | null;
  credit_score: number;
  created_at: number;
  /** Frozen by two members of staff since (074, account/freeze.ts); null while not frozen. */
  frozen_at: Generated<number | null>;
  /** Login password reset by two members of staff since (094, account/controls.ts); null otherwise. */
  password_reset_at: Generated<number | null>;
}

interface SessionsTable {
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** Last use, at most a minute old; with SESSION_IDLE_MS a session unused that long ends (041). */
  last_seen_at: number | null;
  /**
   * `full`, or a password-only step of a two-factor sign-in (049_factors): `verify` (a second
   * factor to give) or `enrol` (one to set up first). A step opens nothing else.
   */
  stage: Generated<SessionStage>;
  /** The session's device (known_devices.device): a step's, for the full session it leads to. */
  device: Generated<string | null>;
  /** A fresh proof of an existing factor given in this session, until a change uses it (049_step_up). */
  step_up_at: Generated<number | null>;
}

export type SessionStage = 'full' | 'verify' | 'enrol';

interface InvitationCodesTable {
  code: string;
  uses: number;
  max_uses: number | null;
  created_at: number;
}

interface LoginAttemptsTable {
  /** `phone:<digits>` or `ip:<address>`. */
  key: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
}

interface LedgerTable {
  id: Generated<number>;
  user_id: number;
  /** Signed minor units: positive is income, negative expense. */
  amount: number;
  balance_after: number;
  /** One of LEDGER_REASONS (src/shared/status.ts). */
  reason: string;
  ref_type: string | null;
  ref_id: number | null;
  created_at: number;
  /** The audit entry of the staff or operator action that caused this posting (070). */
  audit_seq: Generated<number | null>;
}

interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  response: string;
  created_at: number;
}

interface ConfigTable {
  tag: string;
  value: string;
}

interface NewsTable {
  id: Generated<number>;
  title: string;
  subhead: string;
  img: string | null;
  /** Sanitised HTML (DOMPurify) — sanitised when stored. */
  content: string;
  created_at: number;
  updated_at: number;
}

/** A user's named list (046); `default_of` = user_id on the default list (SPEC's favourites). */
interface WatchlistsTable {
  id: Generated<number>;
  user_id: number;
  /** Null on the default list, shown as "Favourites" in the user's language. */
  name: string | null;
  position: number;
  default_of: number | null;
  created_at: number;
}

interface WatchlistItemsTable {
  list_id: number;
  symbol: string;
  created_at: number;
}

/** A price alert (046): value in ticks (above/below) or basis points (move); status 0 active, 1 fired. */
export interface AlertsTable {
  id: Generated<number>;
  user_id: number;
  symbol: string;
  kind: 'above' | 'below' | 'move';
  value: number;
  ref_price: number;
  status: number;
  created_at: number;
  updated_at: number;
  fired_at: number | null;
  fired_price: number | null;
}

/** An inbox item (046); `params` is JSON; `ref_id` names the alert, order or withdrawal. */
interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** What it is about (src/shared/notices.ts): a fired alert, a security event, an order, an IPO, a payout. */
  kind: NoticeKind;
  ref_id: number | null;
  symbol: string;
  params: string;
  created_at: number;
  read_at: number | null;
}

/** A card as `bankCards` answers it (`bank_card` masked on the way out). */
export type BankCardsTable = OwnedRows<BankCard, { updated_at: number }>;

interface KycTable {
  user_id: number;
  real_name: string;
  id_type: string;
  id_number: string;
  id_number_img: string;
  id_number_img_two: string;
  /** 1 under review, 2 approved, 3 rejected. */
  status: number;
  note: string | null;
  /** A rejection's reason code (KYC_REJECTION_REASONS, src/shared/backoffice.ts), worded by the app (070). */
  reason: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

interface UploadsTable {
  /** Server-generated random name. */
  id: string;
  user_id: number;
  mime: string;
  size: number;
  created_at: number;
}

/** Customer-service chat, as `messageList` answers it. */
export type MessagesTable = OwnedRows<ChatMessage>;

interface PositionsTable {
  user_id: number;
  symbol: string;
  qty: number;
  /** Quantity held back by pending sell orders. */
  reserved_qty: number;
  /** Cost basis of the open quantity, minor units. */
  cost: number;
  /** Cost basis in the instrument's currency: sum of price ticks × units (010). */
  cost_native: Generated<number>;
  updated_at: number;
}

export interface OrdersTable {
  id: Generated<number>;
  /** Order number shown to the user. */
  no: string;
  user_id: number;
  /** stock (stocks, forex, futures, treasury), ipo, bulk (block trading), finalize (QIP): SPEC's `mold` (092). */
  kind: string;
  symbol: string;
  market: string;
  name: string;
  /** SPEC's `state` (092). */
  side: 'buy' | 'sell';
  /** Per kind: stock 0 pending 1 success 2 cancelled 3 expired 4 failed; see DESIGN.md. */
  status: number;
  /** Units ordered: SPEC's `count` (092). */
  qty: number;
  /** The price the user saw (ticks); a limit for pending orders. */
  limit_price: number | null;
  /** Fill / issue / block price, ticks. */
  price: number;
  sell_price: number | null;
  fee: number;
  /** Total money of the order, minor units. */
  price_all: number;
  profit: number | null;
  /** The IPO, block item or buy order this row belongs to. */
  ref_id: number | null;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  /** Account-currency ticks per unit of the instrument's currency, fixed at placement (010). */
  rate: Generated<number>;
  /** IN or US (010). */
  region: Generated<string>;
  /** When an IPO/block buy row was sold (010). */
  closed_at: number | null;
  /** Why a failed order was refused: an i18n key under `errors.` (041). */
  reason: string | null;
  /** A block/QIP lot's lock-in: it may be sold from this time on (041). */
  unlock_at: number | null;
  /** Charges of an executed stock order, minor units; `fee` is their sum (048). */
  ch_brokerage: Generated<number>;
  ch_stt: Generated<number>;
  ch_exchange: Generated<number>;
  ch_sebi: Generated<number>;
  ch_stamp: Generated<number>;
  ch_gst: Generated<number>;
  /** market, limit (placed since they were recorded; null before), sl, slm, gtt, oco (048_order_types). */
  order_type: string | null;
  /** Stop orders: the trigger, ticks. */
  trigger_price: number | null;
  /** Stop orders: when the quote reached the trigger. */
  triggered_at: number | null;
  /** GTT orders: 1 when the trigger fires on a rise to it, 0 on a fall (049_trading_gtt). */
  trigger_rises: number | null;
  /** OCO orders (049_trading_oco): the target leg's limit, ticks (its trigger is `trigger_price`). */
  target_limit: number | null;
  /** OCO orders: the stop leg's trigger (a fall to it), ticks. */
  stop_trigger: number | null;
  /** OCO orders: the stop leg's limit, ticks. */
  stop_limit: number | null;
  /** OCO orders: the leg that fired, target or stop; null before. */
  fired_leg: string | null;
  /** Delivery or intraday; day or ioc. */
  product: Generated<string>;
  validity: Generated<string>;
  /** An after-market order's send time (the next session's open); null otherwise. */
  send_at: number | null;
  /** An executed intraday order's square-off time (its session's close); null once done, or delivery. */
  square_at: number | null;
}

interface IposTable {
  id: Generated<number>;
  symbol: string;
  company_name: string;
  series: string;
  /** Forthcoming (open for application), Closed, Listed. */
  status: string;
  issue_price: number;
  min: number;
  max: number;
  issue_start_date: number;
  issue_end_date: number;
  listing_date: number;
  /** Low end of the price band, ticks; the issue price is its top (047). */
  band_low: number | null;
  /** When shares are allotted (047). */
  allotment_date: number | null;
}

interface BlockItemsTable {
  id: Generated<number>;
  /** SPEC's `tag` (092). */
  symbol: string;
  /** bulk (block trading) or finalize (QIP): SPEC's `mold` (092). */
  kind: string;
  /** Market region, IN or US: SPEC's `type` (092). */
  region: string;
  /** Block price, ticks. */
  price: number;
  /** Minimum quantity: SPEC's `count` (092). */
  min_qty: number;
  status: number;
  /** Quantity offered in all; purchases add to `sold`, never past it (041). */
  supply: number;
  sold: number;
}

export interface FundsTable {
  id: Generated<number>;
  name: string;
  /** The fixed-term product's returns of before (basis points over the period); unused since 082. */
  min_return: number;
  max_return: number;
  investment_period: number;
  /** Minimum first purchase, minor units (SPEC's purchase amount: a purchase naming none buys this). */
  amount: number;
  issue_amount: number;
  sold_amount: number;
  /** 1 open for purchases (OFFER_STATUS.open); redemptions are always open. */
  status: number;
  /** The AMC, and the SEBI riskometer level 1 (low) … 6 (very high) (047, 082). */
  manager: string | null;
  risk: number | null;
  /** The scheme's facts (082): SEBI category, expense ratio, exit load, launch and NAV at launch. */
  category: Generated<FundCategory>;
  expense_ratio_bps: Generated<number>;
  exit_load_ppm: Generated<number>;
  exit_load_days: Generated<number>;
  /** Days since 1970-01-01 (Indian calendar). */
  launched_on: Generated<number>;
  /** Ticks (1/10,000). */
  nav_base: Generated<number>;
  /** The latest published NAV (ticks) and its business day; null until the first is published. */
  nav: number | null;
  nav_day: number | null;
}

export interface FundOrdersTable {
  id: Generated<number>;
  user_id: number;
  fund_id: number;
  /**
   * A buy: the money paid. A redemption: what it paid into the balance (0 until its NAV is struck).
   * A `term` order (before 082): the principal it returned.
   */
  amount: number;
  /** Basis points a `term` order promised; 0 for buys and redemptions (nothing is promised). */
  expected_return: number;
  /** active: waiting for its NAV; completed: struck (or a term order paid back); cancelled. */
  status: 'active' | 'completed' | 'cancelled';
  /** When its NAV is published (the order is struck then); a term order's maturity. */
  end_time: number;
  /** A term order's return paid at maturity. */
  profit: number | null;
  created_at: number;
  settled_at: number | null;
  side: Generated<'buy' | 'redeem' | 'term'>;
  /** Thousandths: a buy's allotted units (once struck), a redemption's units. */
  units: number | null;
  /** The NAV it was struck at (ticks), and the business day of that NAV. */
  nav: number | null;
  nav_day: Generated<number>;
  stamp_duty: Generated<number>;
  exit_load: Generated<number>;
  stt: Generated<number>;
}

/** Units a user holds in a fund (082): thousandths; `reserved_units` held by pending redemptions. */
export interface FundPositionsTable {
  user_id: number;
  fund_id: number;
  units: number;
  reserved_units: number;
  /** What the units held cost, minor units (average cost: a redemption takes its share). */
  invested: number;
  updated_at: number;
}

export interface RechargesTable {
  id: Generated<number>;
  user_id: number;
  /** Minor units: SPEC's `count` (093). */
  amount: number;
  method: string;
  /** 1 in progress, 2 completed, 3 failed. */
  status: number;
  settle_at: number;
  created_at: number;
  updated_at: number;
  /** The bank reference (UTR) the customer gave, if any. */
  reference: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  bank_id: number;
  /** Minor units reserved: SPEC's `count` (093). */
  amount: number;
  /** Amount paid out when completed. */
  actual: number;
  /** n in progress, y completed, b failed. */
  status: string;
  settle_at: number;
  /** Why the payout waits for the operator (an i18n key), or null: the payment rail pays it. */
  hold: string | null;
  created_at: number;
  updated_at: number;
}

export interface LoansTable {
  id: Generated<number>;
  user_id: number;
  /** Principal, minor units: SPEC's `count` (093). */
  amount: number;
  /** LOAN_STATE (#shared/status): 0 unapplied, 1 applying, 2 approved, 3 rejected, 4 unpaid, 5 paid; SPEC's `state` (093). */
  status: number;
  created_at: number;
  updated_at: number;
  /** The terms applied under (080): yearly interest, tenure, late charge per day; null before 080. */
  rate_bps: number | null;
  tenure_days: number | null;
  late_bps: number | null;
  disbursed_at: number | null;
  due_at: number | null;
  /** When the accrual job next looks at it (null: nothing more accrues). */
  next_accrual_at: number | null;
  /** Amount due (principal + interest + late charges), minor units: the sum of its loan_postings. */
  due: Generated<number>;
  interest: Generated<number>;
  late_charge: Generated<number>;
}

/** The loan's own ledger (080): every change of a loan's amount due, with the amount due after it. */
export interface LoanPostingsTable {
  id: Generated<number>;
  loan_id: number;
  user_id: number;
  /** Signed minor units: positive adds to what is due. */
  amount: number;
  due_after: number;
  reason: 'borrow' | 'interest' | 'lateCharge' | 'repay';
  created_at: number;
}

/** A run of the ledger audit (061): the job's or the console's; `summary` holds the first problems. */
interface LedgerAuditsTable {
  id: Generated<number>;
  started_at: number;
  took_ms: number;
  source: 'job' | 'console';
  users: number;
  postings: number;
  problems: number;
  summary: string;
}

interface OpsLogTable {
  id: Generated<number>;
  command: string;
  args: string;
  created_at: number;
}

/** A user's valuation on an India calendar day (049); minor units; rewritten through the day. */
export interface PortfolioSnapshotsTable {
  user_id: number;
  /** Days since 1970-01-01, India time. */
  day: number;
  total: number;
  cash: number;
  holdings: number;
  invested: number;
  updated_at: number;
}

/** Second factors (server/factors, 049_factors); `owner` is a factor owner's key (`user:12`). */
interface FactorPasskeysTable {
  id: Generated<number>;
  owner: string;
  /** base64url, as the authenticator gave it. */
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of transport hints. */
  transports: string;
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
  /** When its signature counter went backwards (a cloned authenticator): refused from then on. */
  flagged_at: number | null;
}

interface FactorTotpTable {
  owner: string;
  /** The base32 secret sealed with FACTOR_KEY (server/factors/secrets.ts). */
  secret: string;
  created_at: number;
  /** Null until a first code showed the app holds the secret. */
  confirmed_at: number | null;
  /** The newest time step a code was accepted for: a code is good once. */
  last_step: number | null;
  /** The session (sha256 of its token) a pending secret was made for: only it may confirm (049_step_up). */
  session: Generated<string | null>;
  /** 1: made after a fresh proof of an existing factor. */
  gated: Generated<number>;
}

interface FactorRecoveryTable {
  owner: string;
  /** HMAC-SHA-256 of the normalised code under FACTOR_KEY. */
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

interface FactorChallengesTable {
  /** base64url, as sent to the browser. */
  challenge: string;
  owner: string;
  purpose: 'register' | 'authenticate';
  expires_at: number;
  used_at: number | null;
  /** A registration's session (sha256 of its token): only it may add the passkey (049_step_up). */
  session: Generated<string | null>;
  /** 1: made after a fresh proof of an existing factor. */
  gated: Generated<number>;
}

interface KnownDevicesTable {
  user_id: number;
  /** SHA-256 of the app's device id (or of the user agent when the caller sent none). */
  device: string;
  first_at: number;
  last_at: number;
  /** Security changes up to this time were acknowledged on this device (049_step_up). */
  changes_seen_at: Generated<number | null>;
}

/** A factor change or password reset (049_step_up), shown to the user's other devices. */
interface SecurityChangesTable {
  id: Generated<number>;
  user_id: number;
  /** A SecurityEvent (account/security-events.ts). */
  event: string;
  at: number;
  /** known_devices.device of the session that made it. */
  device: string;
  /** "Chrome on Android" (src/shared/device-name.ts). */
  device_name: string;
  address: string;
}

/** Back-office staff (070): apart from customers; a role of src/shared/backoffice/roles.ts ROLES. */
export interface StaffTable {
  id: Generated<number>;
  login: string;
  name: string;
  role: string;
  /** Null until the enrolment link is used. */
  password_hash: string | null;
  /** Who added them: `staff:<id>` or `cli:<operator>`. */
  created_by: string;
  created_at: number;
  enrolled_at: number | null;
  disabled_at: number | null;
  /** Where their enrolment links go (072; null for members added before). */
  contact: string | null;
  /** Who issued their current enrolment, and when (072): their creator, or an admin's re-enrolment. */
  enrolled_by: string | null;
  enrol_issued_at: number | null;
}

interface StaffEnrolmentsTable {
  /** SHA-256 of the one-time link's token. */
  token_hash: string;
  staff_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface StaffSessionsTable {
  token_hash: string;
  staff_id: number;
  /** enrol: a second factor to set up; verify: one to give; full: the back office is open. */
  stage: string;
  created_at: number;
  /** The absolute limit. */
  expires_at: number;
  last_seen_at: number;
  /** The last second factor given in this session (step-up). */
  factor_at: number | null;
  revoked_at: number | null;
}

/** The append-only, hash-chained audit log (070; triggers refuse UPDATE and DELETE). */
export interface AuditLogTable {
  seq: number;
  at: number;
  /** `staff:<id>`, `cli:<operator>` or `system`. */
  actor: string;
  actor_name: string;
  role: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** The customer the action concerns, for the customer view. */
  customer_id: number | null;
  /** JSON of the state before and after. */
  before: string | null;
  after: string | null;
  reason: string | null;
  request_id: string | null;
  prev_hash: string;
  hash: string;
  /** HMAC of `hash` under AUDIT_KEY (071; null only on entries from before it). */
  mac: string | null;
}

export interface PayoutApprovalsTable {
  id: Generated<number>;
  withdrawal_id: number;
  user_id: number;
  amount: number;
  bank_id: number;
  /** SHA-256 of the payout as the maker saw it: any change voids the approval. */
  binding: string;
  /** awaiting, approved, void, rejected. */
  status: string;
  maker: string;
  maker_name: string;
  created_at: number;
  checker: string | null;
  checker_name: string | null;
  decided_at: number | null;
  note: string | null;
}

/** A maker's request another member checks (072): loans above the threshold, account decisions. */
export interface ApprovalsTable {
  id: Generated<number>;
  /** loan, freeze, unfreeze, … */
  kind: string;
  target_id: string;
  user_id: number | null;
  amount: number | null;
  /** SHA-256 of what was asked: a change voids the request. */
  binding: string;
  /** JSON the checker is shown (the request's reason, what it would do). */
  detail: string | null;
  /** awaiting, approved, void, rejected. */
  status: string;
  maker: string;
  maker_name: string;
  created_at: number;
  checker: string | null;
  checker_name: string | null;
  decided_at: number | null;
  note: string | null;
}

interface WorkClaimsTable {
  item_type: string;
  item_id: string;
  staff_id: number;
  claimed_at: number;
}

export interface ChatThreadsTable {
  user_id: number;
  assigned_to: number | null;
  assigned_at: number | null;
  customer_typing_at: number | null;
  agent_typing_at: number | null;
}

interface CannedRepliesTable {
  id: Generated<number>;
  title: string;
  body: string;
  created_at: number;
}

interface StaffNotesTable {
  id: Generated<number>;
  user_id: number;
  staff_id: number;
  body: string;
  created_at: number;
}

interface NewsScheduledTable {
  id: Generated<number>;
  title: string;
  subhead: string;
  img: string | null;
  /** Sanitised when stored, as a published article is. */
  content: string;
  publish_at: number;
  created_by: number;
  created_at: number;
  published_id: number | null;
  cancelled_at: number | null;
}

interface IpoAllotmentsTable {
  id: Generated<number>;
  ipo_id: number;
  ratio_bps: number;
  /** SHA-256 of the pending applications the table was previewed from. */
  binding: string;
  /** proposed, run, void. */
  status: string;
  proposed_by: string;
  proposed_name: string;
  proposed_at: number;
  run_by: string | null;
  run_name: string | null;
  run_at: number | null;
}

/** The demo's VAPID key pair (090), base64url; one row. */
interface PushKeysTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: number;
}

/** A device's push subscription (090). */
interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  /** The device's P-256 public key and auth secret, base64url (RFC 8291). */
  p256dh: string;
  auth: string;
  device: string;
  lang: string;
  created_at: number;
  last_success_at: number | null;
  /** Refusals in a row (reset by a success); the subscription is dropped past a limit. */
  failures: Generated<number>;
}

/** A user's push preferences (090); `muted` is a JSON list of the groups turned off; quiet hours in minutes of the day. */
interface PushPrefsTable {
  user_id: number;
  muted: string;
  amounts: number;
  quiet_start: number | null;
  quiet_end: number | null;
  quiet_tz: string | null;
  updated_at: number;
}

/** A notice waiting for the sender (090): written in its event's transaction. */
interface PushOutboxTable {
  id: Generated<number>;
  user_id: number;
  kind: NoticeKind;
  symbol: string;
  params: string;
  /** Its inbox item (none for a chat reply: the chat keeps its own unread state). */
  notification_id: number | null;
  state: Generated<number>;
  created_at: number;
}

/** One notice to one device (090); `status` the push service's last HTTP status. */
interface PushDeliveriesTable {
  id: Generated<number>;
  outbox_id: number;
  subscription_id: number;
  state: number;
  attempts: Generated<number>;
  next_at: number;
  claimed_at: number | null;
  sent_at: number | null;
  status: number | null;
  created_at: number;
}
