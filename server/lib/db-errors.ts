/** A unique index refused a row (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** PostgreSQL SQLSTATEs of a server going away or not taking connections (classes 08 and 57P). */
const PG_UNAVAILABLE = new Set([
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** Socket and file-system errors of a database (or its disk) that cannot be reached or written. */
const SYSTEM_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOSPC',
  'EROFS',
  'EDQUOT',
  'EIO',
]);
/** node-postgres says these in words only (no code). */
const PG_CLIENT_GONE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * The database (or the disk under it) cannot take the statement right now — PostgreSQL down,
 * restarting or refusing connections; SQLite's disk full, read-only or failing — as opposed to a
 * statement that is wrong. Such a request is answered 503 `errors.unavailable` (lib/errors.ts), which
 * the app shows as "unreachable", and the server recovers by itself when the database does.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (PG_UNAVAILABLE.has(code) || SYSTEM_UNAVAILABLE.has(code)) return true;
  if (/^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|PROTOCOL)/.test(code)) return true;
  return typeof e.message === 'string' && PG_CLIENT_GONE.test(e.message);
}
