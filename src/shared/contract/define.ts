import type { Static, TSchema } from '@sinclair/typebox';

/*
 * The UI imports the contract with `import type` only (tests/unit/boundaries.test.ts), so schemas
 * stay out of its bundle; its run-time needs (ERR, stableJson…) are in src/shared/call.ts.
 */

/**
 * What every API entry declares, the customer's (`Endpoint`) and the back office's (`OpsEndpoint`,
 * src/shared/backoffice.ts): where it lives, what it takes (a TypeBox schema the server validates
 * with) and what it answers (a type only). The server registers routes from these entries and the
 * callers call them by name, so a path or a shape is written once.
 */
export interface Call<Req extends TSchema = TSchema, Res = unknown> {
  method: 'GET' | 'POST';
  /** Path under the API's base. */
  path: string;
  /** Query (GET) or body (POST). */
  req: Req;
  /** Phantom: the type of `data` in an ok answer. */
  readonly res?: Res;
}

/** One entry of the customer API's contract (SPEC §7), under the API base (default /api). */
export interface Endpoint<Req extends TSchema = TSchema, Res = unknown> extends Call<Req, Res> {
  /** Needs the `token` header; a missing, expired or revoked token answers `msg: 'logout'`, 401. */
  auth: boolean;
  /**
   * Also open to a password-only step session of a two-factor sign-in at these stages:
   * `enrol` (no factor yet: it may set one up), `verify` (it may give one). Every other entry
   * answers such a session `logout` (`errors.secondFactorRequired`), so a password alone reads
   * nothing and moves nothing.
   */
  steps?: ReadonlyArray<'enrol' | 'verify'>;
  /**
   * Moves money: takes an Idempotency-Key, is never retried on its own and is refused offline; a
   * frozen account's is refused 403 `errors.accountFrozen` (server/account/freeze.ts), as is a
   * `tradePassword` entry's.
   */
  money?: boolean;
  /** The same answer for every user (market data): served from a per-tick snapshot with an ETag. */
  shared?: boolean;
  /** multipart/form-data with one `file` field (the request schema describes the other fields). */
  upload?: boolean;
  /**
   * Needs the caller's 6-digit transaction password in the body's `stock_password` (a
   * session token alone must not move money out). The server checks it before the request's
   * transaction; the field stays optional in the schema so SPEC's older body shape is answered
   * with a clear refusal instead of a schema error.
   */
  tradePassword?: boolean;
  /**
   * Where the account has a second factor, needs the session's fresh step-up (the
   * `stepUp` entry's proof of an existing factor), which the call uses up — inside a money
   * call's transaction, so a refused one keeps it. Without it: 403 `errors.stepUpRequired`, never
   * kept under the Idempotency-Key (the same call goes again after the proof).
   */
  stepUp?: boolean;
  /** Also sends `Authorization: Bearer <token>` beside `token` (SPEC §7: the recharge call). */
  bearer?: boolean;
}

/** `endpoint<Answer>()({ ... })`: the answer type is given, the request type is inferred. */
export const endpoint =
  <Res>() =>
  <Req extends TSchema>(def: Omit<Endpoint<Req, Res>, 'res'>): Endpoint<Req, Res> =>
    def;

type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * The domains' entries joined into one API: the customer's contract (contract/index.ts) and the
 * back office's `OPS_API` (src/shared/backoffice.ts). A name, or a method and path, defined twice
 * is a mistake a spread would hide (the later entry silently wins): it throws when the API loads,
 * so every runner fails at once (tests/unit/contract.test.ts).
 */
export function joinDomains<D extends Record<string, Record<string, Call>>>(
  domains: D,
  api = 'contract',
): Intersect<D[keyof D]> {
  const joined: Record<string, Call> = {};
  const owner = new Map<string, string>();
  for (const [domain, entries] of Object.entries(domains)) {
    for (const [name, entry] of Object.entries(entries)) {
      const route = `${entry.method} ${entry.path}`;
      const first = owner.get(name) ?? owner.get(route);
      if (first !== undefined)
        throw new Error(`${api}: ${owner.has(name) ? name : route} is defined in ${first} and in ${domain}`);
      owner.set(name, domain);
      owner.set(route, domain);
      joined[name] = entry;
    }
  }
  return joined as Intersect<D[keyof D]>;
}

export type ReqOf<E> = E extends Call<infer R, unknown> ? Static<R> : never;
export type ResOf<E> = E extends Call<TSchema, infer R> ? R : never;

/**
 * Every API answer carries the server's clock (epoch ms) in this header: the times in answers are
 * the server's, and a phone's clock may be minutes or days off (workers/server-clock.ts).
 */
export const SERVER_TIME_HEADER = 'x-server-time';

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

// The call conventions the UI uses at run time live outside the contract (src/shared/call.ts), so
// UI code can import only types from the contract; re-exported for the server and the worker.
export { type CallResult, ERR, isTransportFailure, stableJson } from '../call';
