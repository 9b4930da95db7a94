/**
 * How one API call turns out, as every client sees it: the error keys every client must
 * understand, the result the sync worker hands the UI, and the identity of a request. Plain values
 * with no schema code, so the UI may import them at run time.
 */

/** Names of the error keys every client must understand. */
export const ERR = {
  invalidInput: 'errors.invalidInput',
  notFound: 'errors.notFound',
  sessionExpired: 'errors.sessionExpired',
  /** A token that matches no session at all (SPEC §8 "Incorrect authorization key"). */
  authKeyIncorrect: 'errors.authKeyIncorrect',
  tooManyAttempts: 'errors.tooManyAttempts',
  network: 'errors.network',
  timeout: 'errors.timeout',
  offline: 'errors.offline',
  /**
   * A read the device never kept while the server cannot be answering it (offline, unreachable):
   * "Not loaded yet — Bourse can't be reached", instead of a placeholder that never ends.
   */
  notLoaded: 'errors.notLoaded',
  server: 'errors.server',
  /** The server is up but its database is not (503): shown as "unreachable", retried like a timeout. */
  unavailable: 'errors.unavailable',
  idempotencyMismatch: 'errors.idempotencyMismatch',
  insufficientFunds: 'errors.insufficientFunds',
  /**
   * The change needs a fresh proof of the account's second factor first: the app asks
   * for one (`stepUp`) and sends the same call again.
   */
  stepUpRequired: 'errors.stepUpRequired',
} as const;

/** What the sync worker hands the UI for one call: never a thrown error, always one of these. */
export type CallResult<T> = { ok: true; data: T } | { ok: false; error: string; status: number };

/** Stable JSON (sorted keys): the identity of a request, for sharing polls and idempotency hashes. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** The call never got a business answer (network, timeout, server fault, offline). */
export function isTransportFailure(errorKey: string): boolean {
  return (
    errorKey === ERR.network ||
    errorKey === ERR.timeout ||
    errorKey === ERR.server ||
    errorKey === ERR.unavailable ||
    errorKey === ERR.offline ||
    errorKey === ERR.notLoaded
  );
}
