import path from 'node:path';
import {
  apiBase,
  bool,
  clockStartOf,
  corsOrigins,
  factorKey,
  metricsOf,
  money,
  num,
  type PgTools,
  percentBps,
  pgToolsOf,
  rate,
  rpId,
  trustProxy,
} from './config-values';

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
  /** Registrations allowed per client address (IPv6: per /64) and window. */
  signupLimit: { perAddress: number; windowMs: number };
  /** Password hashes (scrypt) run at once, and how many more may wait; beyond that: 429. */
  hashing: { concurrency: number; queue: number };
  /** Block/QIP lots may be sold from the next trading session ('session') or after `ms`. */
  blockLockIn: 'session' | number;
  /**
   * The block window (issue 30, DESIGN "Block/QIP"): a block/QIP lot is priced within ±`blockBandBps`
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
   * whatever the real hour (issue 30: a market order on a closed market is an AMO). With OPS_CLOCK
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
   * Two-factor sign-in (issue 32; server/factors). `required` (REQUIRE_2FA, on in production): a
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
  };
  /** The back office (issue 33; server/backoffice). */
  ops: OpsConfig;
  /**
   * The terms of new loans (issue 30; wallet/loans.ts): LOAN_RATE, the yearly interest in percent
   * (default 14, as Indian personal loans start around 10.5–24 % p.a.; 0 is refused, a typo keeps
   * the default); LOAN_TENURE_DAYS, when repayment is due (default 90); LOAN_LATE_RATE, the late
   * charge per day overdue in percent of the principal (default 0.05, about 18 % a year).
   */
  loans: { rateBps: number; tenureDays: number; lateBpsPerDay: number };
  /**
   * REQUIRE_KYC (issue 30 §4; on in production, off in the demo): adding funds, loans and placing
   * orders need approved real-name verification (account/kyc-gate.ts), refused with errors.kycRequired.
   */
  requireKyc: boolean;
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
  /** Where staff open the back office, for enrolment links (OPS_PUBLIC_URL; default http://localhost:PORT). */
  publicUrl: string;
  /** The console's operator as the audit log names them (OPS_OPERATOR; default: the account running it). */
  operator: string;
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
  /** The exchange's transaction charge. */
  exchangePerCrore: number;
  /** SEBI's turnover fee. */
  sebiPerCrore: number;
  /** Stamp duty, on buys only. */
  stampPerCrore: number;
  /** GST on brokerage + exchange charge + SEBI fee, basis points. */
  gstBps: number;
}

const DEFAULT_INVITE_CODE = 'BOURSE26';
const DEFAULT_SEED = 20260101;

/** The demo defaults still in force, as what to set instead (empty: ready for production). */
function demoDefaultsOf(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  if (env.DEMO_USER !== '0') problems.push('DEMO_USER=0 (no demo account)');
  if (!env.INVITE_CODE || env.INVITE_CODE === DEFAULT_INVITE_CODE)
    problems.push('INVITE_CODE=<your own invitation code>');
  if (num(env.SANDBOX_SETTLE_MS, 30_000) >= 0)
    problems.push('SANDBOX_SETTLE_MS=-1 (payments are settled by the operator, never automatically)');
  if (!env.MARKET_PROVIDER) problems.push('MARKET_PROVIDER=yahoo|simulator (chosen explicitly)');
  else if (env.MARKET_PROVIDER !== 'yahoo' && num(env.MARKET_SEED, DEFAULT_SEED) === DEFAULT_SEED)
    problems.push('MARKET_SEED=<a seed of your own> (the default one is public)');
  if (bool(env.OPS_CLOCK, false)) problems.push('OPS_CLOCK=0 (the operator cannot move time)');
  if (env.CLOCK_START) problems.push('CLOCK_START unset (the server keeps the real time)');
  if (!env.FACTOR_KEY)
    problems.push('FACTOR_KEY=<32 random bytes in base64> (seals authenticator-app secrets)');
  if (!env.WEBAUTHN_RP_ID || !env.WEBAUTHN_ORIGINS)
    problems.push('WEBAUTHN_RP_ID=<your domain> WEBAUTHN_ORIGINS=https://<your domain> (passkeys)');
  return problems;
}

/**
 * Why NODE_ENV=production must not start with this configuration — one message naming every
 * variable to set — or null when it may (server/main.ts exits with it before touching the database).
 */
export function productionRefusal(config: Config): string | null {
  if (!config.production || config.demoDefaults.length === 0) return null;
  return [
    'Bourse refuses to start: NODE_ENV=production with demo defaults in force. Set:',
    ...config.demoDefaults.map((d) => `  ${d}`),
  ].join('\n');
}

/**
 * The lines printed once the server listens. The demo prints its invitation code and demo login
 * (`npm start` is zero-configuration); production prints no credentials at all.
 */
export function startBanner(config: Config, readyMs: number): string {
  const lines = [
    '',
    `  Bourse is running at http://localhost:${config.port}/  (ready in ${Math.round(readyMs)} ms)`,
    `  Database:        ${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}`,
  ];
  if (config.metrics.port)
    lines.push(`  Metrics:         http://${config.metrics.host}:${config.metrics.port}/metrics`);
  if (config.production) lines.push('  Mode:            production');
  else {
    lines.push(`  Invitation code: ${config.inviteCode}`);
    if (config.demo) lines.push(`  Demo login:      ${config.demo.phone} / ${config.demo.password}`);
  }
  return `${[...lines, ''].join('\n')}\n`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const production = env.NODE_ENV === 'production';
  return {
    port: num(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    apiBase: apiBase(env.API_BASE),
    databaseUrl: env.DATABASE_URL ?? `sqlite:${path.join(root, 'data', 'bourse.db')}`,
    // Relative to where the server starts, as a shell user means it (the static files need an absolute root).
    distDir: path.resolve(env.DIST_DIR ?? path.join(root, 'dist')),
    uploadsDir: path.resolve(env.UPLOADS_DIR ?? path.join(root, 'data', 'uploads')),
    logLevel: env.LOG_LEVEL ?? 'info',
    logRequests: bool(env.LOG_REQUESTS, false),
    production,
    demoDefaults: demoDefaultsOf(env),
    tokenTtlMs: num(env.TOKEN_TTL_MS, 30 * 24 * 3600 * 1000),
    sessionIdleMs: num(env.SESSION_IDLE_MS, production ? 30 * 60 * 1000 : 0),
    sessionCacheMs: Math.max(0, num(env.SESSION_CACHE_MS, 60_000)),
    trustProxy: trustProxy(env.TRUST_PROXY),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    scrypt: { N: num(env.SCRYPT_N, 2 ** 17), r: 8, p: 1 },
    fundPasswordLimit: Math.max(1, num(env.FUND_PASSWORD_LIMIT, 5)),
    newCardHoldMs: Math.max(0, num(env.NEW_CARD_HOLD_MS, 24 * 3600 * 1000)),
    loginLimit: {
      perPhone: num(env.LOGIN_LIMIT_PHONE, 5),
      perAddress: num(env.LOGIN_LIMIT_ADDRESS, 30),
      windowMs: num(env.LOGIN_LIMIT_WINDOW_MS, 15 * 60 * 1000),
    },
    signupLimit: {
      perAddress: num(env.REGISTER_LIMIT_ADDRESS, 20),
      windowMs: num(env.REGISTER_LIMIT_WINDOW_MS, 60 * 60 * 1000),
    },
    hashing: { concurrency: Math.max(1, num(env.HASH_CONCURRENCY, 2)), queue: num(env.HASH_QUEUE, 32) },
    // Anything but a number of milliseconds (a typo too) keeps the safe default.
    blockLockIn: Math.max(-1, num(env.BLOCK_LOCKIN, -1)) < 0 ? 'session' : num(env.BLOCK_LOCKIN, 0),
    blockBandBps: Math.min(5000, Math.max(0, num(env.BLOCK_BAND_BPS, 100))),
    fx: {
      quoteMaxAgeMs: Math.max(0, num(env.FX_QUOTE_MAX_AGE_MS, 5 * 60_000)),
      configuredMaxAgeMs: Math.max(0, num(env.FX_RATE_MAX_AGE_MS, 24 * 3600 * 1000)),
    },
    orders: {
      maxOpen: num(env.MAX_OPEN_ORDERS, 50),
      limitBandBps: num(env.LIMIT_BAND_BPS, 1000),
      jobBatch: Math.max(1, num(env.ORDER_JOB_BATCH, 200)),
    },
    // Indian equity-delivery defaults; figures and sources in README "Charges".
    charges: {
      brokeragePerCrore: rate(env.CHARGES_BROKERAGE_PER_CRORE, 3000),
      brokerageMaxMinor: env.CHARGES_BROKERAGE_MAX === '0' ? 0 : money(env.CHARGES_BROKERAGE_MAX, 2000),
      sttPerCrore: rate(env.CHARGES_STT_PER_CRORE, 10_000),
      exchangePerCrore: rate(env.CHARGES_EXCHANGE_PER_CRORE, 297),
      sebiPerCrore: rate(env.CHARGES_SEBI_PER_CRORE, 10),
      stampPerCrore: rate(env.CHARGES_STAMP_PER_CRORE, 1500),
      gstBps: rate(env.CHARGES_GST_BPS, 1800),
    },
    balance: {
      max: money(env.MAX_BALANCE, 100_000_000_000),
      maxRecharge: money(env.MAX_RECHARGE, 1_000_000_000),
    },
    market: {
      provider: env.MARKET_PROVIDER === 'yahoo' ? 'yahoo' : 'simulator',
      seed: num(env.MARKET_SEED, DEFAULT_SEED),
      tickMs: num(env.MARKET_TICK_MS, 1000),
      enforceHours: bool(env.ENFORCE_TRADING_HOURS, false),
      yahooUrl: env.YAHOO_URL ?? 'https://query1.finance.yahoo.com',
      yahooFixtures: env.YAHOO_FIXTURES ?? '',
    },
    inviteCode: env.INVITE_CODE || DEFAULT_INVITE_CODE,
    demo:
      env.DEMO_USER === '0'
        ? null
        : {
            phone: env.DEMO_PHONE ?? '9876543210',
            password: env.DEMO_PASSWORD ?? 'demo1234',
            balance: env.DEMO_BALANCE ?? '1000000.00',
          },
    sandboxSettleMs: num(env.SANDBOX_SETTLE_MS, 30_000),
    opsClock: bool(env.OPS_CLOCK, false),
    clockStart: clockStartOf(env.CLOCK_START),
    sqliteGroupCommit: bool(env.SQLITE_GROUP_COMMIT, true),
    jobsLeaderRetryMs: Math.max(100, num(env.JOBS_LEADER_RETRY_MS, 5000)),
    metrics: metricsOf(env),
    pgTools: pgToolsOf(env),
    ledgerAuditMs: Math.max(
      0,
      num(env.LEDGER_AUDIT_MS, /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? '') ? 3_600_000 : 0),
    ),
    twoFactor: {
      required: bool(env.REQUIRE_2FA, production),
      rpId: rpId(env.WEBAUTHN_RP_ID),
      rpName: env.WEBAUTHN_RP_NAME || 'Bourse',
      origins: (env.WEBAUTHN_ORIGINS ?? `http://localhost:${num(env.PORT, 8080)}`)
        .split(',')
        .map((o) => o.trim().replace(/\/$/, ''))
        .filter(Boolean),
      key: factorKey(env.FACTOR_KEY),
      stepTtlMs: Math.max(60_000, num(env.SECOND_STEP_TTL_MS, 10 * 60_000)),
    },
    ops: {
      payoutApprovalAbove: money(env.PAYOUT_APPROVAL_ABOVE, 20_000_000),
      stepUpMs: Math.max(10_000, num(env.OPS_STEP_UP_MS, 5 * 60_000)),
      idleMs: Math.max(60_000, num(env.OPS_IDLE_MS, 15 * 60_000)),
      sessionMs: Math.max(60_000, num(env.OPS_SESSION_MS, 10 * 3600_000)),
      enrolMs: Math.max(60_000, num(env.OPS_ENROL_MS, 72 * 3600_000)),
      publicUrl: (env.OPS_PUBLIC_URL || `http://localhost:${num(env.PORT, 8080)}`).replace(/\/+$/, ''),
      operator: env.OPS_OPERATOR ?? '',
    },
    loans: {
      rateBps: percentBps(env.LOAN_RATE, 1400),
      tenureDays: Math.max(1, Math.floor(num(env.LOAN_TENURE_DAYS, 90))),
      lateBpsPerDay: percentBps(env.LOAN_LATE_RATE, 5),
    },
    requireKyc: bool(env.REQUIRE_KYC, production),
  };
}
