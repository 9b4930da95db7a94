import type { Static, TSchema } from '@sinclair/typebox';

/*
 * define.ts is imported by the UI at run time (ERR, stableJson): it must never import schema
 * code. Schemas live in the domain files, which the UI imports with `import type` only.
 */

/**
 * One entry of the API contract (SPEC §7): where it lives, what it takes (a TypeBox schema the
 * server validates with) and what it answers (a type only). The server registers routes from these
 * entries and the sync worker calls them by name, so a path or a shape is written once.
 */
export interface Endpoint<Req extends TSchema = TSchema, Res = unknown> {
  method: 'GET' | 'POST';
  /** Path under the API base (default /api). */
  path: string;
  /** Needs the `token` header; a missing, expired or revoked token answers `msg: 'logout'`, 401. */
  auth: boolean;
  /** Query (GET) or body (POST). */
  req: Req;
  /** Moves money: takes an Idempotency-Key, is never retried on its own and is refused offline. */
  money?: boolean;
  /** The same answer for every user (market data): served from a per-tick snapshot with an ETag. */
  shared?: boolean;
  /** multipart/form-data with one `file` field (the request schema describes the other fields). */
  upload?: boolean;
  /** Phantom: the type of `data` in an ok answer. */
  readonly res?: Res;
}

/** `endpoint<Answer>()({ ... })`: the answer type is given, the request type is inferred. */
export const endpoint =
  <Res>() =>
  <Req extends TSchema>(def: Omit<Endpoint<Req, Res>, 'res'>): Endpoint<Req, Res> =>
    def;

/** A list page: `rows` and the total `count` (SPEC's paged answers). */
export interface Page<T> {
  rows: T[];
  count: number;
}

export type ReqOf<E> = E extends Endpoint<infer R, unknown> ? Static<R> : never;
export type ResOf<E> = E extends Endpoint<TSchema, infer R> ? R : never;

export interface OkAnswer<T> {
  msg: 'ok';
  data: T;
}
/** A rejection: `data` is the i18n key of the message (e.g. `errors.invalidInvitationCode`). */
export interface NoAnswer {
  msg: 'no' | 'logout';
  data: string;
  /** Values the message interpolates, e.g. `{ min: 100 }` for `errors.withdrawMin`. */
  params?: Record<string, string | number>;
}
export type Answer<T> = OkAnswer<T> | NoAnswer;

/** Names of the error keys every client must understand. */
export const ERR = {
  invalidInput: 'errors.invalidInput',
  notFound: 'errors.notFound',
  sessionExpired: 'errors.sessionExpired',
  tooManyAttempts: 'errors.tooManyAttempts',
  network: 'errors.network',
  timeout: 'errors.timeout',
  offline: 'errors.offline',
  server: 'errors.server',
  idempotencyMismatch: 'errors.idempotencyMismatch',
  insufficientFunds: 'errors.insufficientFunds',
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
    errorKey === ERR.offline
  );
}
