import path from 'node:path';

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
  tokenTtlMs: number;
  /** scrypt cost; OWASP's N = 2^17, r = 8, p = 1 unless lowered for tests. */
  scrypt: { N: number; r: number; p: number };
  /** Login lockout: failures allowed per window, per phone number and per address. */
  loginLimit: { perPhone: number; perAddress: number; windowMs: number };
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
}

function num(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return value === '1' || value.toLowerCase() === 'true';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, root = process.cwd()): Config {
  return {
    port: num(env.PORT, 8080),
    host: env.HOST ?? '0.0.0.0',
    apiBase: env.API_BASE ?? '/api',
    databaseUrl: env.DATABASE_URL ?? `sqlite:${path.join(root, 'data', 'bourse.db')}`,
    distDir: env.DIST_DIR ?? path.join(root, 'dist'),
    uploadsDir: env.UPLOADS_DIR ?? path.join(root, 'data', 'uploads'),
    logLevel: env.LOG_LEVEL ?? 'info',
    tokenTtlMs: num(env.TOKEN_TTL_MS, 30 * 24 * 3600 * 1000),
    scrypt: { N: num(env.SCRYPT_N, 2 ** 17), r: 8, p: 1 },
    loginLimit: {
      perPhone: num(env.LOGIN_LIMIT_PHONE, 5),
      perAddress: num(env.LOGIN_LIMIT_ADDRESS, 30),
      windowMs: num(env.LOGIN_LIMIT_WINDOW_MS, 15 * 60 * 1000),
    },
    market: {
      provider: env.MARKET_PROVIDER === 'yahoo' ? 'yahoo' : 'simulator',
      seed: num(env.MARKET_SEED, 20260101),
      tickMs: num(env.MARKET_TICK_MS, 1000),
      enforceHours: bool(env.ENFORCE_TRADING_HOURS, false),
      yahooUrl: env.YAHOO_URL ?? 'https://query1.finance.yahoo.com',
      yahooFixtures: env.YAHOO_FIXTURES ?? '',
    },
    inviteCode: env.INVITE_CODE ?? 'BOURSE26',
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
  };
}
