import { createECDH, createHash } from 'node:crypto';
import path from 'node:path';
import { percentToBps } from '#shared/loans';
import { toMinor } from '#shared/money';
import { proxyTrust } from './lib/proxies';

/**
 * Readers of one environment variable each (server/config.ts's loadConfig composes them): a value,
 * its default, and the refusal of a value that cannot be meant.
 */

/** A rate that must be a whole, non-negative number; anything else keeps the default. */
export function rate(value: string | undefined, fallback: number): number {
  const n = num(value, fallback);
  return Number.isSafeInteger(n) && n >= 0 ? n : fallback;
}

/**
 * SCRYPT_N: scrypt's cost, a power of two from 2^10 (the tests' cost) to 2^20 (1 GiB a hash);
 * default 2^17, OWASP's. Anything else stops the start with this message: scrypt itself would
 * refuse it at the first hash (SCRYPT_N=2 did, with a stack trace, while seeding).
 */
export function scryptCost(value: string | undefined): number {
  const n = value === undefined || value === '' ? 2 ** 17 : Number(value);
  if (!Number.isInteger(n) || n < 2 ** 10 || n > 2 ** 20 || (n & (n - 1)) !== 0)
    throw new Error(
      `SCRYPT_N=${value}: scrypt's cost is a power of two from 1024 to 1048576 (production: 131072 or more)`,
    );
  return n;
}

export function num(value: string | undefined, fallback: number): number {
  const n = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/** An amount like "1000000.00" in minor units, or the fallback when unset or not an amount. */
export function money(value: string | undefined, fallback: number): number {
  const minor = value === undefined || value === '' ? null : toMinor(value);
  return minor !== null && minor > 0 ? minor : fallback;
}

/**
 * TRUST_PROXY: a hop count ("1") or proxy addresses and CIDR ranges ("10.0.0.1,10.0.0.0/8"); unset,
 * 0 or false trusts none; anything else is refused at start (lib/proxies.ts).
 */
export function trustProxy(value: string | undefined): number | string[] | false {
  const text = value?.trim() ?? '';
  if (text === '' || text === '0' || text.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (text.toLowerCase() === 'true' || text === '*') {
    throw new Error(
      "TRUST_PROXY=true would believe any client's X-Forwarded-For: set a hop count (e.g. 1) or the proxies' addresses",
    );
  }
  const list = text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  // Refused at start, in the operator's words, rather than trusting a sender by a typo.
  proxyTrust(list);
  return list;
}

/**
 * CORS_ORIGINS: exact origins (`https://shell.example`, `capacitor://localhost`), never `*` — the
 * API's answers belong to signed-in users, so every origin that may read them is named.
 */
export function corsOrigins(value: string | undefined): string[] {
  const list = (value ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of list) {
    if (origin === '*' || origin === 'null')
      throw new Error(`CORS_ORIGINS may not contain ${origin}: name each origin that may call the API`);
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(`CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port])`);
    }
    if (parsed.origin !== origin && `${parsed.protocol}//${parsed.host}` !== origin)
      throw new Error(`CORS_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path)`);
  }
  return list;
}

/**
 * Where pg_dump and pg_restore are looked for (PG_BIN_DIR, then PATH, then Debian's versioned
 * folders) and the environment they run with: libpq's own variables (PGSSLMODE, PGSSLROOTCERT…),
 * HOME (for ~/.pgpass) and the locale, nothing else of the server's.
 */
export interface PgTools {
  binDir: string;
  searchPath: string;
  env: Record<string, string>;
}

export function pgToolsOf(env: NodeJS.ProcessEnv): PgTools {
  const passed = Object.entries(env).filter(
    (e): e is [string, string] =>
      e[1] !== undefined &&
      (/^PG[A-Z]+$/.test(e[0]) || ['HOME', 'LANG', 'LC_ALL', 'LC_MESSAGES', 'TZ'].includes(e[0])),
  );
  return { binDir: env.PG_BIN_DIR ?? '', searchPath: env.PATH ?? '', env: Object.fromEntries(passed) };
}

/** METRICS_PORT/METRICS_HOST; the public port is refused (metrics are for the operator only). */
export function metricsOf(env: NodeJS.ProcessEnv): { port: number; host: string } {
  const port = num(env.METRICS_PORT, 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`METRICS_PORT=${env.METRICS_PORT}: a port number (0: no metrics)`);
  if (port !== 0 && port === num(env.PORT, 8080))
    throw new Error(
      `METRICS_PORT=${port} is the public port: metrics get a port of their own, closed to the internet`,
    );
  return { port, host: env.METRICS_HOST || '127.0.0.1' };
}

/** A percent (LOAN_RATE, LOAN_LATE_RATE) in basis points; unset, zero or not a percent keeps the default. */
export function percentBps(value: string | undefined, fallback: number): number {
  const bps = value === undefined || value === '' ? null : percentToBps(value);
  return bps !== null && bps > 0 ? bps : fallback;
}

/**
 * CLOCK_START: an ISO 8601 instant or epoch ms, optionally `@<epoch ms>` — the real time at which the
 * clock read that instant, so instances started seconds apart share one clock (a cluster's); anything
 * else stops the start (a typo must not run at the real time unnoticed).
 */
export function clockStartOf(value: string | undefined): number | null {
  if (!value) return null;
  const [instant = '', anchor] = value.split('@');
  const instantOf = (text: string) => (/^\d+$/.test(text) ? Number(text) : Date.parse(text));
  const at = instantOf(instant);
  const since = anchor === undefined ? 0 : Date.now() - Number(anchor);
  if (
    !Number.isFinite(at) ||
    at <= 0 ||
    !Number.isFinite(since) ||
    since < 0 ||
    (anchor !== undefined && !/^\d+$/.test(anchor))
  )
    throw new Error(`CLOCK_START: not an instant: ${value}`);
  return at + since;
}

export function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return value === '1' || value.toLowerCase() === 'true';
}

/**
 * API_BASE: a path of its own such as /api (no trailing slash). The app's pages and the API are
 * told apart by it (routes, the service worker's cache rules, each answer's security policy), so
 * an empty base or "/" would make every page an API answer.
 */
export function apiBase(value: string | undefined): string {
  const base = value ?? '/api';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(base)) {
    throw new Error(
      `API_BASE=${JSON.stringify(base)}: set a path of its own such as /api (not "/" or empty)`,
    );
  }
  return base;
}

/**
 * FACTOR_KEY: 32 bytes in base64. The demo, without one, derives a fixed key (production refuses to
 * start without its own: `demoDefaultsOf`).
 */
export function factorKey(value: string | undefined): Buffer {
  if (!value) return createHash('sha256').update('bourse demo factor key').digest();
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('FACTOR_KEY must be 32 bytes in base64 (openssl rand -base64 32)');
  return key;
}

/**
 * AUDIT_KEY: the audit log's key (MACs of entries, signatures of its heads), kept apart from the
 * database like FACTOR_KEY; the demo's is derived from a public text.
 */
export function auditKey(value: string | undefined): Buffer {
  if (!value) return createHash('sha256').update('bourse demo audit key').digest();
  const key = Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('AUDIT_KEY must be 32 bytes in base64 (openssl rand -base64 32)');
  return key;
}

/**
 * AUDIT_HEADS_FILE: where the audit log's signed heads go, outside the database. By default beside
 * an SQLite file (`<file>.audit-heads`), or under ./data/audit-heads/ named after a PostgreSQL
 * database (host, port, name), so two databases never share one.
 */
export function auditHeadsFile(value: string | undefined, databaseUrl: string, root: string): string {
  if (value) return path.resolve(value);
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const u = new URL(databaseUrl);
    const name = `${u.hostname}_${u.port || 5432}_${u.pathname.replace(/^\//, '') || 'postgres'}`;
    return path.join(root, 'data', 'audit-heads', `${name.replace(/[^\w.-]/g, '_')}.log`);
  }
  const file = databaseUrl.replace(/^sqlite:/, '');
  if (file === ':memory:' || file.startsWith('file::memory:'))
    return path.join(root, 'data', 'audit-heads', 'memory.log');
  return `${path.resolve(file)}.audit-heads`;
}

/** WEBAUTHN_RP_ID: a domain; an IP address cannot be a WebAuthn relying party. */
export function rpId(value: string | undefined): string {
  const id = value?.trim() || 'localhost';
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(id) || /^[\d.]+$/.test(id) || id.includes(':')) {
    throw new Error(
      `WEBAUTHN_RP_ID=${JSON.stringify(id)}: set the app's domain (not an IP address or a URL)`,
    );
  }
  return id.toLowerCase();
}

/** The push services browsers subscribe with (Chrome/Android, Firefox, Safari/iOS, Edge): PUSH_SERVICE_HOSTS' default. */
const PUSH_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'push.services.mozilla.com',
  'push.apple.com',
  'notify.windows.com',
];

/** PUSH_SERVICE_HOSTS: hosts or parent domains, comma-separated; unset: the browsers' own services. */
export function pushHostsOf(value: string | undefined): string[] {
  const list = (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const host of list)
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(host))
      throw new Error(`PUSH_SERVICE_HOSTS: "${host}" is not a host name`);
  return list.length > 0 ? list : PUSH_HOSTS;
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, both or neither (null: the demo's pair in the database).
 * A key of the wrong shape stops the start: every push would be refused by the push services.
 */
export function vapidKeysOf(env: NodeJS.ProcessEnv): { publicKey: string; privateKey: string } | null {
  const publicKey = env.VAPID_PUBLIC_KEY?.trim() ?? '';
  const privateKey = env.VAPID_PRIVATE_KEY?.trim() ?? '';
  if (!publicKey && !privateKey) return null;
  const bytes = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? Buffer.from(key, 'base64url').length : -1);
  if (bytes(publicKey) !== 65 || Buffer.from(publicKey, 'base64url')[0] !== 4)
    throw new Error('VAPID_PUBLIC_KEY must be an uncompressed P-256 public key, base64url (65 bytes)');
  if (bytes(privateKey) !== 32)
    throw new Error('VAPID_PRIVATE_KEY must be a P-256 private key, base64url (32 bytes)');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
  if (ecdh.getPublicKey('base64url') !== publicKey)
    throw new Error('VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY');
  return { publicKey, privateKey };
}
