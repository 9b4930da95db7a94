/**
 * The shape of the server's configuration (server/config.ts reads it from the environment): every
 * setting, its unit and what it governs, apart from how each is read and checked.
 */
import type { PgTools } from './config-values';

/** Everything the server reads from its environment, with the demo defaults of `npm start`. */
export interface Config {
  port: number;
  host: string;
  /** Base path of the API (SPEC §7), default /api. */
  apiBase: string;
  /** `sqlite:<file>` (default ./data/bourse.db), `sqlite::memory:`, or `postgres://…`. */
  databaseUrl: string;
  /** The built PWA; not served when the folder is missing (API-only tests). */
  distDir: string;
  /** Where uploaded identity photos are kept: outside any public folder. */
  uploadsDir: string;
  logLevel: string;
  /**
   * LOG_REQUESTS=1: a log line per request and per answer (Fastify's request logging). Off by
   * default: at info level it was the largest cost of a small answer; faults are logged anyway.
   */
  logRequests: boolean;
  /** NODE_ENV=production: demo defaults are refused at start (`demoDefaults`), HSTS is on. */
  production: boolean;
  /**
   * What the environment left at a demo default, each as the variable to set and how; production
   * refuses to start while this is not empty (server/main.ts).
   */
  demoDefaults: string[];
  /**
   * Settings production will not run with (config-floors.ts: scrypt cost, session limits, guess
   * limits, http origins, patterned keys, 2FA/KYC off, open metrics, step-up and approval bounds),
   * each as what to set and why; production refuses to start while this is not empty.
   */
  weakSettings: string[];
  /** Weakened settings I_UNDERSTAND_WEAK_SETTINGS accepted: production's start banner prints them. */
  weakenedOnPurpose: string[];
  /** Absolute session lifetime. */
  tokenTtlMs: number;
  /** A session unused this long ends (0: never); production defaults to 30 minutes. */
  sessionIdleMs: number;
  /**
   * How long a valid session is remembered before its row is read again (lib/session-cache.ts);
   * a logout or password change takes effect at once here and, on PostgreSQL, on the other
   * instances as their notice arrives (lib/session-notices.ts); a row changed by hand within this.
   * SESSION_CACHE_MS, default 60,000; 0: read on every call.
   */
  sessionCacheMs: number;
  /**
   * Which proxies' X-Forwarded-For is believed: a hop count or a list of proxy addresses/CIDRs;
   * false believes none. Never "everything", which would let a client choose its own address.
   */
  trustProxy: number | string[] | false;
  /**
   * Origins a hybrid app shell or partner page serves the app from (CORS_ORIGINS, comma-separated):
   * they may call the API (server/lib/cors.ts). Empty by default; `*` is refused.
   */
  corsOrigins: string[];
  /** scrypt cost; OWASP's N = 2^17, r = 8, p = 1 unless lowered for tests. */
  scrypt: { N: number; r: number; p: number };
  /** Wrong transaction passwords in a row before it locks (account/fund-password.ts). */
  fundPasswordLimit: number;
  /**
   * A withdrawal to a bank card added or changed less than this long ago waits for the operator
   * (`npm run ops -- withdraw:release|pay|reject`) instead of the payment rail; 0: never held.
   */
  newCardHoldMs: number;
  /** Login lockout: failures allowed per window, per phone number and per address. */
  loginLimit: { perPhone: number; perAddress: number; windowMs: number };
  /**
   * Second-factor guesses (app codes, recovery codes, passkey tries) per account and window
   * (FACTOR_LIMIT_ACCOUNT, default 5; FACTOR_LIMIT_WINDOW_MS, default 15 minutes): a count of their
   * own, apart from passwords, that only time clears — a right password (or code) never resets it.
   * They also count against the address's login limit.
   */
  factorLimit: { perAccount: number; windowMs: number };
  /** Registrations allowed per client address (IPv6: per /64) and window. */
  signupLimit: { perAddress: number; windowMs: number };
  /** Password hashes (scrypt) run at once, and how many more may wait; beyond that: 429. */
  hashing: { concurrency: number; queue: number };
  /** Block/QIP lots may be sold from the next trading session ('session') or after `ms`. */
  blockLockIn: 'session' | number;
  /**
   * The block window (DESIGN "Block/QIP"): a block/QIP lot is priced within ±`blockBandBps`
   * of the reference price — the live market price when the order is placed — BLOCK_BAND_BPS,
   * default 100 (1 %, NSE's block-deal window). The server decides the price (trading/holdings.ts).
   */
  blockBandBps: number;
  /**
   * The USD → account-currency rate (trading/fx.ts): the live USD quote counts while its price is at
   * most `quoteMaxAgeMs` older than the newest its market can have (now while the forex market is
   * open, its last close while it is shut), FX_QUOTE_MAX_AGE_MS, default 5 minutes; the configured
   * rate (`npm run ops -- rate:set`) counts for `configuredMaxAgeMs` after the operator set it,
   * FX_RATE_MAX_AGE_MS, default 24 hours.
   */
  fx: { quoteMaxAgeMs: number; configuredMaxAgeMs: number };
  /** Open (pending) stock orders per user; limits at most `limitBandBps` from the quote; job batch size. */
  orders: { maxOpen: number; limitBandBps: number; jobBatch: number };
  /** Charges on executed stock/forex/futures/treasury orders (trading/charges.ts; README "Charges"). */
  charges: ChargeSchedule;
  /** Largest balance and largest single recharge, minor units (far below 2^53). */
  balance: { max: number; maxRecharge: number };
  market: {
    provider: 'simulator' | 'yahoo';
    seed: number;
    tickMs: number;
    enforceHours: boolean;
    /** Yahoo-style chart source: a base URL, or a folder of recorded chart files (wins when set). */
    yahooUrl: string;
    yahooFixtures: string;
  };
  /** Invitation code created by the seed. */
  inviteCode: string;
  demo: { phone: string; password: string; balance: string } | null;
  /** The sandbox payment provider settles recharges/withdrawals after this delay (ms). */
  sandboxSettleMs: number;
  /**
   * Demo and e2e only: follow the clock offset the operator sets with `npm run ops --
   * clock:advance` (so maturities and expiries can be shown without waiting). Off by default.
   */
  opsClock: boolean;
  /**
   * CLOCK_START (demo, e2e and drills only; production refuses it): the server's clock starts at this
   * instant (ISO 8601 or epoch ms; `…@<epoch ms>`: as read at that real time) and runs on from there — so a suite runs inside an open session
   * whatever the real hour (a market order on a closed market is an AMO). With OPS_CLOCK
   * the operator's offset starts there (server/main.ts). null: the real time.
   */
  clockStart: number | null;
  /**
   * PostgreSQL with several instances: how often an instance that does not run the jobs tries to
   * take over (JOBS_LEADER_RETRY_MS), i.e. the longest jobs pause when the leader goes away.
   */
  jobsLeaderRetryMs: number;
  /**
   * Concurrent SQLite transactions share one COMMIT/fsync (db/index.ts). On by default since the
   * kill -9 test (tests/server/crash.test.ts) keeps every acknowledged order with it; SQLITE_GROUP_COMMIT=0
   * turns it off.
   */
  sqliteGroupCommit: boolean;
  /**
   * PostgreSQL: how long a request waits for one of the pool's connections before it is answered
   * 503 (PG_CONNECT_TIMEOUT_MS, 5 s: inside the app's 10 s timeout when the database does not
   * answer). A test of many requests at once on a loaded machine raises it: it measures the
   * ledger, not the pool.
   */
  pgConnectTimeoutMs: number;
  /**
   * Prometheus metrics (lib/metrics.ts) on a port of their own, METRICS_PORT (0, the default: none;
   * never PORT), bound to METRICS_HOST (default 127.0.0.1: only this machine scrapes unless the
   * operator opens it).
   */
  metrics: { port: number; host: string };
  /**
   * How often the server runs the ledger audit and records its result (the metrics report the last
   * one): LEDGER_AUDIT_MS, default hourly on PostgreSQL (the jobs' leader, in a snapshot beside the
   * traffic) and 0 — never — on SQLite, whose one connection it would hold for the whole audit:
   * there `npm run ops -- ledger:audit` from cron records it instead.
   */
  ledgerAuditMs: number;
  /** PostgreSQL's client tools for backups (db/backup.ts). */
  pgTools: PgTools;
  /**
   * Two-factor sign-in (server/factors). `required` (REQUIRE_2FA, on in production): a
   * password alone opens only the second step, or the enrolment of a first factor. The relying
   * party is WEBAUTHN_RP_ID (a domain, never an IP address) with WEBAUTHN_ORIGINS (the app's exact
   * origins, comma-separated); `key` (FACTOR_KEY, 32 bytes in base64) seals authenticator-app
   * secrets and keys the recovery codes' hashes.
   */
  twoFactor: {
    required: boolean;
    rpId: string;
    rpName: string;
    origins: string[];
    key: Buffer;
    /** How long a password-only step session lasts before the second factor must be given. */
    stepTtlMs: number;
    /**
     * STEP_UP_MS (default 5 min): how long a proof of a factor given in a session (`stepUp`) stays
     * fresh for the one change it authorises (account/step-up.ts).
     */
    stepUpMs: number;
    /**
     * FACTOR_SETTLE_MS (default 24 h): how long a security change is new — a factor added this
     * recently cannot authorise removing an older one, and after a factor change or a password
     * reset withdrawals wait for a person.
     */
    settleMs: number;
  };
  /** The back office (server/backoffice). */
  ops: OpsConfig;
  /**
   * The audit log's seal (lib/audit-seal.ts): AUDIT_KEY (32 bytes in base64, kept apart from the
   * database) MACs every entry and signs its heads; AUDIT_HEADS_FILE is where the signed heads go.
   */
  audit: { key: Buffer; headsFile: string };
  /**
   * The terms of new loans (wallet/loans.ts): LOAN_RATE, the yearly interest in percent
   * (default 14, as Indian personal loans start around 10.5–24 % p.a.; 0 is refused, a typo keeps
   * the default); LOAN_TENURE_DAYS, when repayment is due (default 90); LOAN_LATE_RATE, the late
   * charge per day overdue in percent of the principal (default 0.05, about 18 % a year).
   */
  loans: { rateBps: number; tenureDays: number; lateBpsPerDay: number };
  /**
   * REQUIRE_KYC (on in production, off in the demo): adding funds, loans and placing
   * orders need approved real-name verification (account/kyc-gate.ts), refused with errors.kycRequired.
   */
  requireKyc: boolean;
  /** Web Push (server/notify). */
  push: PushConfig;
}

/** Web Push: the server's VAPID identity and where it may send. */
export interface PushConfig {
  /**
   * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (base64url, an uncompressed P-256 point and its 32-byte
   * scalar; `npx web-push generate-vapid-keys` makes a pair): required in production. Unset in the
   * demo: a pair made at first start and kept in the database (push_keys).
   */
  vapid: { publicKey: string; privateKey: string } | null;
  /** VAPID_SUBJECT: how a push service reaches the operator (`mailto:` or `https:`); required in production. */
  subject: string;
  /**
   * PUSH_SERVICE_HOSTS: the push services a subscription's endpoint may name (a host or a parent
   * domain, comma-separated). A browser hands the app an endpoint and the server POSTs to it, so an
   * endpoint is never taken on trust: https, on one of these, nowhere else.
   */
  hosts: string[];
  /** PUSH_LOOPBACK=1: also http://127.0.0.1:<port> (tests, benchmarks, e2e); refused in production. */
  loopback: boolean;
  /** PUSH_DEVICES_MAX: devices subscribed per user (default 10). */
  maxDevices: number;
}

/** The back office's limits. */
export interface OpsConfig {
  /** A payout above this (minor units) needs a second staff member (PAYOUT_APPROVAL_ABOVE, ₹2,00,000). */
  payoutApprovalAbove: number;
  /** A second factor counts as fresh for this long (OPS_STEP_UP_MS, 5 minutes). */
  stepUpMs: number;
  /** A staff session unused this long ends (OPS_IDLE_MS, 15 minutes); polls do not count as use. */
  idleMs: number;
  /** A staff session ends this long after sign-in whatever happens (OPS_SESSION_MS, 10 hours). */
  sessionMs: number;
  /** An enrolment link works once, for this long (OPS_ENROL_MS, 72 hours). */
  enrolMs: number;
  /**
   * Where staff open the back office, for enrolment links (OPS_PUBLIC_URL, else the first of
   * WEBAUTHN_ORIGINS). Neither set: the address the server recorded when it started
   * (backoffice/staff.ts `publicUrlOf`), so the console's links name the server's port, not its own.
   */
  publicUrl: string | null;
  /** The console's operator as the audit log names them (OPS_OPERATOR; default: the account running it). */
  operator: string;
  /** A loan above this (minor units) needs a second staff member (LOAN_APPROVAL_ABOVE, ₹1,00,000). */
  loanApprovalAbove: number;
  /** A recharge above this (minor units) is confirmed by two staff members (DEPOSIT_APPROVAL_ABOVE, ₹2,00,000). */
  depositApprovalAbove: number;
  /**
   * A member created or re-enrolled by someone this recently (OPS_RELATED_DAYS, 30 days) cannot
   * check that person's work (approvals/people.ts).
   */
  relatedMs: number;
  /** Where messages to staff (enrolment links) are delivered as files (STAFF_OUTBOX_DIR, ./data/outbox). */
  outboxDir: string;
}

/**
 * A charges schedule. Rates are currency units per crore (10^7) of turnover, the unit exchanges and
 * SEBI publish in (0.03 % = 3,000 per crore), so every published rate is a whole number.
 */
export interface ChargeSchedule {
  /** Brokerage per executed order: this rate, capped at `brokerageMaxMinor`. */
  brokeragePerCrore: number;
  brokerageMaxMinor: number;
  /** Securities transaction tax, on buys and sells (equity delivery). */
  sttPerCrore: number;
  /** STT of an intraday (non-delivery) order, on the sell side only. */
  sttIntradayPerCrore: number;
  /** The exchange's transaction charge. */
  exchangePerCrore: number;
  /** SEBI's turnover fee. */
  sebiPerCrore: number;
  /** Stamp duty, on buys only (delivery). */
  stampPerCrore: number;
  /** Stamp duty of an intraday buy. */
  stampIntradayPerCrore: number;
  /** GST on brokerage + exchange charge + SEBI fee, basis points. */
  gstBps: number;
}
