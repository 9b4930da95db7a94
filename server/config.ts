import path from 'node:path';
import { OVERRIDE_VARIABLE, weakSettingsOf } from './config-floors';
import type { Config } from './config-types';
import {
  apiBase,
  auditHeadsFile,
  auditKey,
  bool,
  clockStartOf,
  corsOrigins,
  factorKey,
  metricsOf,
  money,
  num,
  percentBps,
  pgToolsOf,
  pushHostsOf,
  rate,
  rpId,
  scryptCost,
  trustProxy,
  vapidKeysOf,
} from './config-values';

export type { ChargeSchedule, Config, OpsConfig, PushConfig } from './config-types';

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
  if (!env.AUDIT_KEY)
    problems.push(
      'AUDIT_KEY=<32 random bytes in base64> (seals the audit log; keep it apart from the database)',
    );
  if (!env.WEBAUTHN_RP_ID || !env.WEBAUTHN_ORIGINS)
    problems.push('WEBAUTHN_RP_ID=<your domain> WEBAUTHN_ORIGINS=https://<your domain> (passkeys)');
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY)
    problems.push(
      'VAPID_PUBLIC_KEY=<key> VAPID_PRIVATE_KEY=<key> (Web Push; npx web-push generate-vapid-keys)',
    );
  if (!env.VAPID_SUBJECT) problems.push('VAPID_SUBJECT=mailto:<address> (how push services reach you)');
  if (bool(env.PUSH_LOOPBACK, false)) problems.push('PUSH_LOOPBACK=0 (pushes go to push services only)');
  return problems;
}

/**
 * Why NODE_ENV=production must not start with this configuration — one message naming every
 * variable to set — or null when it may (server/main.ts exits with it before touching the database).
 */
export function productionRefusal(config: Config): string | null {
  const lines = [...config.demoDefaults, ...config.weakSettings];
  if (!config.production || lines.length === 0) return null;
  return [
    'Bourse refuses to start: NODE_ENV=production with demo defaults or weak settings in force. Set:',
    ...lines.map((d) => `  ${d}`),
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
  if (config.production) {
    lines.push('  Mode:            production');
    for (const weak of config.weakenedOnPurpose)
      lines.push(`  Weakened:        ${weak} — on purpose (${OVERRIDE_VARIABLE})`);
  } else {
    lines.push(`  Invitation code: ${config.inviteCode}`);
    if (config.demo) lines.push(`  Demo login:      ${config.demo.phone} / ${config.demo.password}`);
  }
  return `${[...lines, ''].join('\n')}\n`;
}

/** The configuration as read, before production's verdict on it. */
type ConfigValues = Omit<Config, 'weakSettings' | 'weakenedOnPurpose'>;

/**
 * Every setting from the environment. A value that cannot be meant (a malformed key, `*` in
 * CORS_ORIGINS, SCRYPT_N=3) throws an Error whose message names it; server/main.ts prints that
 * message alone, never a stack trace.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  const values = configValues(env, root);
  const { refused, accepted } = weakSettingsOf(env, values);
  return { ...values, weakSettings: refused, weakenedOnPurpose: accepted };
}

function configValues(env: NodeJS.ProcessEnv, root: string): ConfigValues {
  const production = env.NODE_ENV === 'production';
  const databaseUrl = env.DATABASE_URL ?? `sqlite:${path.join(root, 'data', 'bourse.db')}`;
  return {
    port: num(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    apiBase: apiBase(env.API_BASE),
    databaseUrl,
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
    scrypt: { N: scryptCost(env.SCRYPT_N), r: 8, p: 1 },
    fundPasswordLimit: Math.max(1, num(env.FUND_PASSWORD_LIMIT, 5)),
    newCardHoldMs: Math.max(0, num(env.NEW_CARD_HOLD_MS, 24 * 3600 * 1000)),
    loginLimit: {
      perPhone: num(env.LOGIN_LIMIT_PHONE, 5),
      perAddress: num(env.LOGIN_LIMIT_ADDRESS, 30),
      windowMs: num(env.LOGIN_LIMIT_WINDOW_MS, 15 * 60 * 1000),
    },
    factorLimit: {
      perAccount: Math.max(1, num(env.FACTOR_LIMIT_ACCOUNT, 5)),
      windowMs: Math.max(60_000, num(env.FACTOR_LIMIT_WINDOW_MS, 15 * 60 * 1000)),
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
    // Indian equity defaults (delivery, and intraday's STT and stamp); figures and sources in README "Charges".
    charges: {
      brokeragePerCrore: rate(env.CHARGES_BROKERAGE_PER_CRORE, 3000),
      brokerageMaxMinor: env.CHARGES_BROKERAGE_MAX === '0' ? 0 : money(env.CHARGES_BROKERAGE_MAX, 2000),
      sttPerCrore: rate(env.CHARGES_STT_PER_CRORE, 10_000),
      sttIntradayPerCrore: rate(env.CHARGES_STT_INTRADAY_PER_CRORE, 2500),
      exchangePerCrore: rate(env.CHARGES_EXCHANGE_PER_CRORE, 297),
      sebiPerCrore: rate(env.CHARGES_SEBI_PER_CRORE, 10),
      stampPerCrore: rate(env.CHARGES_STAMP_PER_CRORE, 1500),
      stampIntradayPerCrore: rate(env.CHARGES_STAMP_INTRADAY_PER_CRORE, 300),
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
    pgConnectTimeoutMs: Math.max(100, num(env.PG_CONNECT_TIMEOUT_MS, 5000)),
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
      stepUpMs: Math.max(10_000, num(env.STEP_UP_MS, 5 * 60_000)),
      settleMs: Math.max(0, num(env.FACTOR_SETTLE_MS, 24 * 3600_000)),
    },
    ops: {
      payoutApprovalAbove: money(env.PAYOUT_APPROVAL_ABOVE, 20_000_000),
      stepUpMs: Math.max(10_000, num(env.OPS_STEP_UP_MS, 5 * 60_000)),
      idleMs: Math.max(60_000, num(env.OPS_IDLE_MS, 15 * 60_000)),
      sessionMs: Math.max(60_000, num(env.OPS_SESSION_MS, 10 * 3600_000)),
      enrolMs: Math.max(60_000, num(env.OPS_ENROL_MS, 72 * 3600_000)),
      // The back office's own address, else the site's public origin (the first of
      // WEBAUTHN_ORIGINS, which production requires): a console's enrolment link then names where
      // people reach the server — where a staff passkey can be made — never the console's PORT.
      publicUrl:
        (env.OPS_PUBLIC_URL || env.WEBAUTHN_ORIGINS?.split(',')[0]?.trim() || '').replace(/\/+$/, '') || null,
      operator: env.OPS_OPERATOR ?? '',
      loanApprovalAbove: money(env.LOAN_APPROVAL_ABOVE, 10_000_000),
      depositApprovalAbove: money(env.DEPOSIT_APPROVAL_ABOVE, 20_000_000),
      relatedMs: Math.max(0, num(env.OPS_RELATED_DAYS, 30)) * 86_400_000,
      outboxDir: path.resolve(env.STAFF_OUTBOX_DIR ?? path.join(root, 'data', 'outbox')),
    },
    loans: {
      rateBps: percentBps(env.LOAN_RATE, 1400),
      tenureDays: Math.max(1, Math.floor(num(env.LOAN_TENURE_DAYS, 90))),
      lateBpsPerDay: percentBps(env.LOAN_LATE_RATE, 5),
    },
    requireKyc: bool(env.REQUIRE_KYC, production),
    audit: {
      key: auditKey(env.AUDIT_KEY),
      headsFile: auditHeadsFile(env.AUDIT_HEADS_FILE, databaseUrl, root),
    },
    push: {
      vapid: vapidKeysOf(env),
      subject: env.VAPID_SUBJECT || 'mailto:support@bourse.example',
      hosts: pushHostsOf(env.PUSH_SERVICE_HOSTS),
      loopback: bool(env.PUSH_LOOPBACK, false),
      maxDevices: Math.max(1, Math.floor(num(env.PUSH_DEVICES_MAX, 10))),
    },
  };
}
