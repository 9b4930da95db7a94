import { createHash } from 'node:crypto';
import { fromMinor } from '#shared/money';

/**
 * What production will not run with: settings that each weaken a safeguard
 * a customer's money or account relies on — cheap password hashes, sessions that never end, limits
 * an attacker cannot reach, plain-http origins, a guessable key, an open metrics port, a step-up
 * that lasts all day, maker-checker above any real payout. Each is one line of the refusal, saying
 * what to set and why. Three are choices an operator may make on purpose (a closed pilot without
 * KYC, metrics behind a firewall): naming them in I_UNDERSTAND_WEAK_SETTINGS lets them through,
 * and the start banner then prints them every time.
 */

/** The variable that accepts a weakened setting on purpose, and the ones it may name. */
export const OVERRIDE_VARIABLE = 'I_UNDERSTAND_WEAK_SETTINGS';
const OVERRIDABLE = ['REQUIRE_2FA', 'REQUIRE_KYC', 'METRICS_HOST'] as const;
type Overridable = (typeof OVERRIDABLE)[number];

/** The floors (and ceilings), with the reason each line gives. */
const FLOORS = {
  /** OWASP's minimum scrypt cost with r = 8, p = 1. */
  scryptN: 2 ** 17,
  /** A session left unused at most an hour (ASVS V7.3.1 asks for an idle limit; banks use minutes). */
  sessionIdleMaxMs: 60 * 60_000,
  tokenTtlMaxMs: 30 * 24 * 3600_000,
  /** Password and second-factor guesses per account and window; the window at least 5 minutes. */
  perAccountMax: 10,
  perAddressMax: 1000,
  windowMinMs: 5 * 60_000,
  /** A step-up lasts minutes, not a shift. */
  stepUpMaxMs: 15 * 60_000,
  /** ₹10,00,000: above it a single member of staff could pay or lend almost anything alone. */
  approvalAboveMaxMinor: 100_000_000,
} as const;

/** The settings the floors read: a part of server/config.ts's Config (which imports this file). */
interface Settings {
  scrypt: { N: number };
  sessionIdleMs: number;
  tokenTtlMs: number;
  loginLimit: { perPhone: number; perAddress: number; windowMs: number };
  factorLimit: { perAccount: number; windowMs: number };
  fundPasswordLimit: number;
  corsOrigins: string[];
  twoFactor: { required: boolean; origins: string[]; key: Buffer };
  audit: { key: Buffer };
  requireKyc: boolean;
  metrics: { port: number; host: string };
  ops: {
    publicUrl: string | null;
    stepUpMs: number;
    payoutApprovalAbove: number;
    loanApprovalAbove: number;
    depositApprovalAbove: number;
  };
}

/** Distinct byte values a key must show: a random 32-byte key has ~27; a pattern has a handful. */
const KEY_MIN_DISTINCT_BYTES = 16;

function weakKey(key: Buffer, demoText: string): boolean {
  const demo = createHash('sha256').update(demoText).digest();
  return key.equals(demo) || new Set(key).size < KEY_MIN_DISTINCT_BYTES;
}

const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;
const isHttp = (origin: string) => /^http:/i.test(origin);

interface Check {
  weak: boolean;
  /** Its line in the refusal: what to set, and why. */
  line: string;
  /** Set: an operator may accept it by naming this in I_UNDERSTAND_WEAK_SETTINGS. */
  overridable?: Overridable;
  /** How the banner names it when accepted. */
  shown?: string;
}

function checksOf(env: NodeJS.ProcessEnv, config: Settings): Check[] {
  const login = config.loginLimit;
  const factor = config.factorLimit;
  const httpOrigins = [...config.twoFactor.origins, ...config.corsOrigins].filter(isHttp);
  return [
    {
      weak: config.scrypt.N < FLOORS.scryptN,
      line: `SCRYPT_N=${FLOORS.scryptN} or more (now ${config.scrypt.N}: password hashes that cheap are cracked offline)`,
    },
    {
      weak: config.sessionIdleMs <= 0 || config.sessionIdleMs > FLOORS.sessionIdleMaxMs,
      line: `SESSION_IDLE_MS between 1 and ${FLOORS.sessionIdleMaxMs} (now ${config.sessionIdleMs}: a session left unused must end)`,
    },
    {
      weak: config.tokenTtlMs > FLOORS.tokenTtlMaxMs,
      line: `TOKEN_TTL_MS=${FLOORS.tokenTtlMaxMs} or less (now ${config.tokenTtlMs}: a session ends within 30 days whatever its use)`,
    },
    {
      weak: login.perPhone < 1 || login.perPhone > FLOORS.perAccountMax,
      line: `LOGIN_LIMIT_PHONE between 1 and ${FLOORS.perAccountMax} (now ${login.perPhone}: password guesses per phone and window)`,
    },
    {
      weak: login.perAddress < 1 || login.perAddress > FLOORS.perAddressMax,
      line: `LOGIN_LIMIT_ADDRESS between 1 and ${FLOORS.perAddressMax} (now ${login.perAddress}: guesses per address and window)`,
    },
    {
      weak: login.windowMs < FLOORS.windowMinMs,
      line: `LOGIN_LIMIT_WINDOW_MS=${FLOORS.windowMinMs} or more (now ${login.windowMs}: a short window resets the limits)`,
    },
    {
      weak: factor.perAccount > FLOORS.perAccountMax,
      line: `FACTOR_LIMIT_ACCOUNT=${FLOORS.perAccountMax} or less (now ${factor.perAccount}: second-factor guesses per account and window)`,
    },
    {
      weak: factor.windowMs < FLOORS.windowMinMs,
      line: `FACTOR_LIMIT_WINDOW_MS=${FLOORS.windowMinMs} or more (now ${factor.windowMs}: a short window resets the limit)`,
    },
    {
      weak: config.fundPasswordLimit > FLOORS.perAccountMax,
      line: `FUND_PASSWORD_LIMIT=${FLOORS.perAccountMax} or less (now ${config.fundPasswordLimit}: transaction-password guesses before it locks)`,
    },
    {
      weak: httpOrigins.length > 0,
      line: `WEBAUTHN_ORIGINS and CORS_ORIGINS with https:// origins only (now ${httpOrigins.join(', ')}: tokens would cross the network in clear)`,
    },
    {
      // Only the back office's own address: the fallback to WEBAUTHN_ORIGINS has its line above.
      weak: Boolean(env.OPS_PUBLIC_URL) && config.ops.publicUrl !== null && isHttp(config.ops.publicUrl),
      line: `OPS_PUBLIC_URL=https://… (now ${config.ops.publicUrl}: enrolment links would cross the network in clear)`,
    },
    {
      weak: Boolean(env.FACTOR_KEY) && weakKey(config.twoFactor.key, 'bourse demo factor key'),
      line: 'FACTOR_KEY=<32 random bytes in base64> (the one set is a pattern, not random: openssl rand -base64 32)',
    },
    {
      weak: Boolean(env.AUDIT_KEY) && weakKey(config.audit.key, 'bourse demo audit key'),
      line: 'AUDIT_KEY=<32 random bytes in base64> (the one set is a pattern, not random: openssl rand -base64 32)',
    },
    {
      weak: Boolean(env.FACTOR_KEY) && config.twoFactor.key.equals(config.audit.key),
      line: 'AUDIT_KEY different from FACTOR_KEY (one leaked key must not open both)',
    },
    {
      weak: !config.twoFactor.required,
      line: `REQUIRE_2FA=1 (a password alone would open an account) — or ${OVERRIDE_VARIABLE}=REQUIRE_2FA`,
      overridable: 'REQUIRE_2FA',
      shown: 'REQUIRE_2FA=0 (a password alone opens an account)',
    },
    {
      weak: !config.requireKyc,
      line: `REQUIRE_KYC=1 (money would move without verified identities) — or ${OVERRIDE_VARIABLE}=REQUIRE_KYC`,
      overridable: 'REQUIRE_KYC',
      shown: 'REQUIRE_KYC=0 (money moves without verified identities)',
    },
    {
      weak: config.metrics.port !== 0 && ['0.0.0.0', '::', '[::]'].includes(config.metrics.host),
      line: `METRICS_HOST=127.0.0.1 or a private address (now ${config.metrics.host}: metrics open to every network) — or ${OVERRIDE_VARIABLE}=METRICS_HOST`,
      overridable: 'METRICS_HOST',
      shown: `METRICS_HOST=${config.metrics.host} (metrics on every network)`,
    },
    {
      weak: config.ops.stepUpMs > FLOORS.stepUpMaxMs,
      line: `OPS_STEP_UP_MS=${FLOORS.stepUpMaxMs} or less (now ${config.ops.stepUpMs}: a second factor counts as fresh for ${minutes(config.ops.stepUpMs)})`,
    },
    {
      weak: config.ops.payoutApprovalAbove > FLOORS.approvalAboveMaxMinor,
      line: `PAYOUT_APPROVAL_ABOVE=${fromMinor(FLOORS.approvalAboveMaxMinor)} or less (now ${fromMinor(config.ops.payoutApprovalAbove)}: one member of staff would pay any payout alone)`,
    },
    {
      weak: config.ops.loanApprovalAbove > FLOORS.approvalAboveMaxMinor,
      line: `LOAN_APPROVAL_ABOVE=${fromMinor(FLOORS.approvalAboveMaxMinor)} or less (now ${fromMinor(config.ops.loanApprovalAbove)}: one member of staff would lend any amount alone)`,
    },
    {
      weak: config.ops.depositApprovalAbove > FLOORS.approvalAboveMaxMinor,
      line: `DEPOSIT_APPROVAL_ABOVE=${fromMinor(FLOORS.approvalAboveMaxMinor)} or less (now ${fromMinor(config.ops.depositApprovalAbove)}: one member of staff would credit any deposit alone)`,
    },
  ];
}

/**
 * Production's verdict on the settings: `refused`, one line each (what to set, and why), and
 * `accepted`, the weakened settings I_UNDERSTAND_WEAK_SETTINGS let through (the banner prints them).
 * An override naming a setting that may not be weakened, or an unknown name, is refused too.
 */
export function weakSettingsOf(
  env: NodeJS.ProcessEnv,
  config: Settings,
): { refused: string[]; accepted: string[] } {
  const named = (env[OVERRIDE_VARIABLE] ?? '')
    .split(',')
    .map((n) => n.trim().toUpperCase())
    .filter(Boolean);
  const refused: string[] = [];
  const accepted: string[] = [];
  for (const name of named)
    if (!(OVERRIDABLE as readonly string[]).includes(name))
      refused.push(
        `${OVERRIDE_VARIABLE} naming only ${OVERRIDABLE.join(', ')} (${name} cannot be weakened on purpose)`,
      );
  for (const check of checksOf(env, config)) {
    if (!check.weak) continue;
    if (check.overridable && named.includes(check.overridable)) accepted.push(check.shown ?? check.line);
    else refused.push(check.line);
  }
  return { refused, accepted };
}
