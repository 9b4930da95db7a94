import type { Generated } from 'kysely';
import type { ChatMessage } from '#shared/contract/content';
import type { BankCard } from '#shared/contract/settings';

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
  staff: StaffTable;
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
  /** A step session's device (known_devices.device), for the full session it leads to. */
  device: Generated<string | null>;
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

/** An inbox item (046); `params` is JSON; `ref_id` names the alert. */
interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** `alert`: a price alert fired; `security`: a security event of the account (issue 32). */
  kind: 'alert' | 'security';
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
  /** stock (stocks, forex, futures, treasury), ipo, bulk (block trading), finalize (QIP). */
  mold: string;
  symbol: string;
  market: string;
  name: string;
  state: 'buy' | 'sell';
  /** Per mold: stock 0 pending 1 success 2 cancelled 3 expired 4 failed; see DESIGN.md. */
  status: number;
  count: number;
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
  /** Stop orders: sl or slm; null for market/limit (048_order_types). */
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
  /** Issue 30 (049_trading_amo): delivery or intraday; day or ioc. */
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
  tag: string;
  /** bulk (block trading) or finalize (QIP). */
  mold: string;
  /** Market region, IN or US. */
  type: string;
  /** Block price, ticks. */
  price: number;
  /** Minimum quantity. */
  count: number;
  status: number;
  /** Quantity offered in all; purchases add to `sold`, never past it (041). */
  supply: number;
  sold: number;
}

export interface FundsTable {
  id: Generated<number>;
  name: string;
  /** Returns in basis points over the whole period. */
  min_return: number;
  max_return: number;
  investment_period: number;
  /** Purchase amount, minor units. */
  amount: number;
  issue_amount: number;
  sold_amount: number;
  status: number;
  /** Fund manager and risk level 1 (low) … 5 (high) (047). */
  manager: string | null;
  risk: number | null;
}

export interface FundOrdersTable {
  id: Generated<number>;
  user_id: number;
  fund_id: number;
  amount: number;
  /** Basis points. */
  expected_return: number;
  status: 'active' | 'completed' | 'cancelled';
  end_time: number;
  profit: number | null;
  created_at: number;
  settled_at: number | null;
}

export interface RechargesTable {
  id: Generated<number>;
  user_id: number;
  count: number;
  method: string;
  /** 1 in progress, 2 completed, 3 failed. */
  status: number;
  settle_at: number;
  created_at: number;
  updated_at: number;
}

export interface WithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  bank_id: number;
  count: number;
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
  count: number;
  /** 0 unapplied, 1 applying, 2 approved, 3 rejected, 4 unpaid, 5 paid. */
  state: number;
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
}

interface KnownDevicesTable {
  user_id: number;
  /** SHA-256 of the app's device id (or of the user agent when the caller sent none). */
  device: string;
  first_at: number;
  last_at: number;
}

/** Back-office staff (070): apart from customers; a role of server/backoffice/roles.ts. */
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
