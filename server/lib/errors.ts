import type { Kysely } from 'kysely';
import { ERR, type NoAnswer } from '#shared/contract/define';
import type { DB } from '../db/schema';
import { isDatabaseUnavailable } from './db-errors';

/**
 * A rejection the app can translate: `key` is an i18n key (locales/*\/errors.json) and becomes
 * the answer's `data`; 401 answers `msg: 'logout'` so the app ends the session (SPEC §4).
 */
export class ApiError extends Error {
  constructor(
    readonly key: string,
    readonly status = 400,
    /** Values the message interpolates (e.g. the configured minimum), sent as `params`. */
    readonly params?: Record<string, string | number>,
  ) {
    super(key);
  }
}

/** The `{ msg, data, params? }` answer of a rejection (the error handler and replays send it). */
export function errorAnswer(err: ApiError): NoAnswer {
  const msg = err.status === 401 ? 'logout' : 'no';
  return err.params ? { msg, data: err.key, params: err.params } : { msg, data: err.key };
}

export const notFound = () => new ApiError(ERR.notFound, 404);
export const invalid = (key: string = ERR.invalidInput) => new ApiError(key, 400);

/** Throws the first problem of several checks (each a message key or null) as a 400. */
export function refuseFirst(...problems: Array<string | null>): void {
  const key = problems.find((k) => k !== null);
  if (key) throw invalid(key);
}
export const conflict = (key: string) => new ApiError(key, 409);

/**
 * A refusal that leaves a trace: the handler's transaction is rolled back as for any ApiError,
 * then `record` runs in a transaction of its own (with the Idempotency-Key, so a retry replays the
 * refusal instead of recording it twice) before the same answer is sent. Used for a refused
 * block/QIP buy, which SPEC §4 keeps as a failed order.
 */
export class RecordedRefusal extends ApiError {
  constructor(
    cause: ApiError,
    readonly record: (db: Kysely<DB>) => Promise<void>,
  ) {
    super(cause.key, cause.status, cause.params);
  }
}

/** Keys of refusals made by the transport (HTTP parser, body parser, router), not by a route. */
const TRANSPORT_ERR = {
  requestTooLarge: 'errors.requestTooLarge',
} as const;

/**
 * The answer to any error thrown while serving a request, written once for the route error
 * handler, the router's bad-URL answers and the HTTP parser's client errors: an `ApiError` as it
 * says; anything the framework blames on the request (validation, a body it cannot parse or that
 * is too large, an unknown route) a 4xx with an i18n key; everything else is the server's fault:
 * a 500, `fault` true, and the caller logs it with the request id.
 */
export function answerFor(err: unknown): {
  status: number;
  body: NoAnswer;
  fault: boolean;
  /** The database could not be reached or written (a 503 the caller logs as a warning). */
  unavailable?: boolean;
} {
  if (err instanceof ApiError) return { status: err.status, body: errorAnswer(err), fault: false };
  if (isDatabaseUnavailable(err))
    return { status: 503, body: { msg: 'no', data: ERR.unavailable }, fault: false, unavailable: true };
  const e = err as { validation?: unknown; statusCode?: unknown };
  if (e?.validation) return { status: 400, body: { msg: 'no', data: ERR.invalidInput }, fault: false };
  const status = typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    const data =
      status === 413 || status === 414 || status === 431
        ? TRANSPORT_ERR.requestTooLarge
        : status === 404
          ? ERR.notFound
          : status === 408
            ? ERR.timeout
            : status === 429
              ? ERR.tooManyAttempts
              : ERR.invalidInput;
    return { status, body: { msg: 'no', data }, fault: false };
  }
  return { status: 500, body: { msg: 'no', data: ERR.server }, fault: true };
}
