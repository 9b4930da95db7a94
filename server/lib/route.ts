import { createHash } from 'node:crypto';
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Kysely } from 'kysely';
import { IDEMPOTENCY_KEY_PATTERN } from '#shared/contract/account';
import {
  type Endpoint,
  ERR,
  type NoAnswer,
  type OkAnswer,
  type ReqOf,
  type ResOf,
  stableJson,
} from '#shared/contract/define';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import { statement } from '../db/statement';
import type { Deps } from '../deps';
import { type AuthUser, authenticate, authenticateRemembered, tokenOf } from './auth';
import { ApiError, errorAnswer, RecordedRefusal } from './errors';
import { markPrivate, privateAnswer } from './private-answers';
import { RawJson } from './snapshot';

export interface RouteContext<E extends Endpoint> {
  input: ReqOf<E>;
  /** The caller; reading it on a public endpoint without a session answers `logout`. */
  user: AuthUser;
  /** The database — inside the route's transaction for money endpoints. */
  db: Kysely<DB>;
  deps: Deps;
  req: FastifyRequest;
  reply: FastifyReply;
}

/**
 * The transaction-password check of `tradePassword` entries: refuses (ApiError) unless `code` is the
 * user's. The gateway knows no account rule; the app hands it one (server/app.ts decorates
 * `tradePasswordCheck` with account/fund-password's `requireTradePassword`).
 */
export type TradePasswordCheck = (deps: Deps, userId: number, code: unknown) => Promise<void>;

/**
 * The step-up of `stepUp` entries: uses up the session's fresh proof of an existing
 * factor in `db` (the money call's transaction, or the database), or refuses (ApiError); answers
 * how to give it back when the change is refused. app.ts decorates `stepUpCheck` with
 * account/step-up's `takeStepUp`.
 */
export type StepUpCheck = (
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  token: string,
) => Promise<{ giveBack(): Promise<void> }>;

/**
 * The account's standing for `money` and `tradePassword` entries: refuses (ApiError) when the
 * account may not move money now. app.ts decorates `moneyCheck` with account/freeze's
 * `refuseFrozen`.
 */
export type MoneyCheck = (deps: Deps, db: Kysely<DB>, userId: number) => Promise<void>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    tradePasswordCheck?: TradePasswordCheck;
    moneyCheck?: MoneyCheck;
    stepUpCheck?: StepUpCheck;
  }
}

const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/*
 * A class, not an object literal with a `get user()`: V8 moved that literal's allocations straight
 * to the old generation (allocation-site pretenuring), and each dead one then kept its request's
 * req, reply and input alive through every minor collection — 4.7 KB promoted per answer on every
 * route() endpoint, ~7 µs of GC per answer (bench:profile prints promotion per answer).
 */
class Context<E extends Endpoint> implements RouteContext<E> {
  constructor(
    readonly input: ReqOf<E>,
    private readonly caller: AuthUser | null,
    readonly db: Kysely<DB>,
    readonly deps: Deps,
    readonly req: FastifyRequest,
    readonly reply: FastifyReply,
  ) {}

  get user(): AuthUser {
    if (!this.caller) throw new ApiError(ERR.sessionExpired, 401);
    return this.caller;
  }
}

/**
 * The envelope of an ok answer around `data`'s schema, for Fastify's compiled serializer
 * (fast-json-stringify): it writes only the fields the schema names, so each schema lists every
 * field of its answer (tests/server/answers.test.ts compares them with the contract's samples).
 */
function okAnswer(data: TSchema) {
  return Type.Object({ msg: Type.Literal('ok'), data }, { additionalProperties: false });
}

/**
 * Body fields that are secrets stay out of the stored request hash: a 6-digit transaction
 * password hashed beside otherwise known fields could be recovered by trying all codes.
 */
const SECRET_FIELDS = ['stock_password'];
const withoutSecrets = (input: unknown): unknown =>
  input !== null && typeof input === 'object' && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([k]) => !SECRET_FIELDS.includes(k)))
    : input;

/*
 * The Idempotency-Key rows every money call writes, as fixed SQL (db/statement.ts). A claim
 * inserts the key unless the user already has it: a row comes back only when it was inserted.
 */
const CLAIM_KEY = statement(
  `insert into idempotency_keys (user_id, "key", request_hash, status_code, response, created_at)
   values (?, ?, ?, ?, ?, ?) on conflict (user_id, "key") do nothing returning user_id`,
);
const KEY_ANSWERED = statement(
  'update idempotency_keys set status_code = 200, response = ? where user_id = ? and "key" = ?',
);

/** Takes `key` for this request (true), or finds it already taken by an earlier one (false). */
async function claimKey(
  trx: Kysely<DB>,
  userId: number,
  key: string,
  requestHash: string,
  status: number,
  response: string,
  at: number,
): Promise<boolean> {
  return (await CLAIM_KEY(trx, [userId, key, requestHash, status, response, at])).length > 0;
}

/**
 * The caller each request with a session was let in as, by its onRequest hook: a request property
 * declared once per app (`decorateRequest`, so every request object keeps one shape), not a
 * WeakMap entry per request (an ephemeron the garbage collector must trace on every answer).
 */
const CALLER = 'bourseCaller';
declare module 'fastify' {
  interface FastifyRequest {
    [CALLER]: AuthUser | null;
  }
}

/**
 * The onRequest hook of an entry with a session: the private answer's headers, then the session
 * (or a step the entry is open to), before any input is read. One hook, and no promise when the
 * session is remembered (`authenticateRemembered`: almost every call of a polling app).
 */
function privateSignedIn(deps: Deps, ep: Endpoint) {
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    markPrivate(reply);
    let user: AuthUser | undefined;
    try {
      user = authenticateRemembered(deps, req, ep.steps);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (user !== undefined) {
      req[CALLER] = user;
      done();
      return;
    }
    authenticate(deps, req, ep.steps).then((u) => {
      req[CALLER] = u;
      done();
    }, done);
  };
}

/** A query schema that names no parameter and lets none through (an empty object's). */
function takesNoParameter(schema: TSchema): boolean {
  const { type, properties, patternProperties, additionalProperties } = schema as {
    type?: unknown;
    properties?: object;
    patternProperties?: object;
    additionalProperties?: unknown;
  };
  return (
    type === 'object' &&
    Object.keys(properties ?? {}).length === 0 &&
    patternProperties === undefined &&
    (additionalProperties === undefined || additionalProperties === false)
  );
}

function callerOf(req: FastifyRequest): AuthUser {
  const user = req[CALLER];
  if (!user) throw new Error(`${req.url}: no caller (the session hook did not run)`);
  return user;
}

/**
 * Registers one contract entry: the session check (before anything reads the input), validation by
 * its schema, the transaction password of `tradePassword` entries, the `{ msg, data }` envelope,
 * and for money endpoints one transaction around the handler with Idempotency-Key replay (same
 * key + same body → the first answer; same key + other body → rejected).
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  handler: (ctx: RouteContext<E>) => Promise<ResOf<E> | RawJson>,
  options: { answer?: TSchema } = {},
): void {
  const deps = app.deps;
  const tradePassword = app.tradePasswordCheck;
  if (ep.tradePassword && !tradePassword)
    throw new Error(
      `${ep.path} needs a transaction password check: decorate the app with tradePasswordCheck`,
    );
  const stepUp = app.stepUpCheck;
  const standing = ep.money || ep.tradePassword ? app.moneyCheck : undefined;
  if (ep.stepUp && (!stepUp || !ep.auth))
    throw new Error(`${ep.path} needs a step-up check and a session: decorate the app with stepUpCheck`);
  const stepUpIn = (db: Kysely<DB>, req: FastifyRequest, user: AuthUser | null) =>
    ep.stepUp && stepUp && user ? stepUp(deps, db, user.id, tokenOf(req) ?? '') : null;
  // A GET that takes no parameter (user info, balance, the unread counts: the polled reads) has no
  // query schema to run: validation would only remove whatever was sent (lib/validation.ts ignores
  // unknown parameters), so its handler is given no input at once and nothing sent is read.
  const takesNothing = ep.method === 'GET' && takesNoParameter(ep.req);
  const request =
    ep.method === 'GET' ? (takesNothing ? {} : { querystring: ep.req }) : ep.upload ? {} : { body: ep.req };
  if (ep.auth && !app.hasRequestDecorator(CALLER)) app.decorateRequest(CALLER, null);
  app.route({
    method: ep.method,
    url: deps.config.apiBase + ep.path,
    // A multipart body is read by the handler (req.file()), not validated as JSON. An `answer`
    // schema (the ok answer's `data`) compiles a serializer for the hot polling answers.
    schema: options.answer ? { ...request, response: { 200: okAnswer(options.answer) } } : request,
    // A session's answers, and the sign-in calls that hand one out, are never cached; the session
    // is checked before the body is even read (401 before 400), so a caller
    // without one gets the same refusal whatever it sends and learns nothing of the schema.
    ...(ep.auth
      ? { onRequest: privateSignedIn(deps, ep) }
      : ep.method === 'POST'
        ? { onRequest: privateAnswer }
        : {}),
    handler: async (req, reply) => {
      const user = ep.auth ? callerOf(req) : null;
      const input = (takesNothing ? {} : ((ep.method === 'GET' ? req.query : req.body) ?? {})) as ReqOf<E>;
      // A frozen account moves nothing: refused first, so it neither spends a transaction-password
      // guess nor leaves an outcome under its Idempotency-Key.
      if (standing && user) await standing(deps, deps.database.db, user.id);
      // Before any transaction: a wrong code counts towards the lockout although the call fails.
      if (ep.tradePassword && tradePassword) {
        if (!user) throw new Error(`endpoint ${ep.path} needs a transaction password but no session`);
        await tradePassword(deps, user.id, (input as { stock_password?: unknown }).stock_password);
      }
      const ctx = (db: Kysely<DB>): RouteContext<E> => new Context(input, user, db, deps, req, reply);
      if (!ep.money) {
        // Taken before the change and given back when the change is refused (a bad card number).
        // Without a step-up (every polled read) nothing is awaited or wrapped around the handler.
        const taken = ep.stepUp ? await stepUpIn(deps.database.db, req, user) : null;
        const data =
          taken === null
            ? await handler(ctx(deps.database.db))
            : await handler(ctx(deps.database.db)).catch(async (err: unknown) => {
                if (err instanceof ApiError && err.status < 500) await taken.giveBack();
                throw err;
              });
        if (data instanceof RawJson) {
          // Already serialised by a cache: only the envelope is added, byte for byte JSON.
          reply.header('content-type', 'application/json; charset=utf-8');
          return `{"msg":"ok","data":${data.text}}`;
        }
        return { msg: 'ok', data } satisfies OkAnswer<ResOf<E>>;
      }
      if (!user) throw new Error(`money endpoint ${ep.path} must require a session`);
      const owner = user;
      const key = req.headers['idempotency-key'];
      // Sent twice, a key is ambiguous (over HTTP the copies arrive joined, which the pattern refuses).
      if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)))
        throw new ApiError(ERR.invalidInput, 400);
      const requestHash = createHash('sha256')
        .update(`${ep.method} ${ep.path} ${stableJson(withoutSecrets(input))}`)
        .digest('hex');
      const run = withTx(deps.database, async (trx) => {
        if (key) {
          if (!(await claimKey(trx, owner.id, key, requestHash, 0, '', deps.clock.now()))) {
            const prior = await trx
              .selectFrom('idempotency_keys')
              .select(['request_hash', 'response', 'status_code'])
              .where('user_id', '=', owner.id)
              .where('key', '=', key)
              .executeTakeFirstOrThrow();
            if (prior.request_hash !== requestHash) throw new ApiError(ERR.idempotencyMismatch, 422);
            reply.header('idempotent-replay', 'true');
            const stored = JSON.parse(prior.response) as OkAnswer<ResOf<E>> | NoAnswer;
            if (stored.msg !== 'ok') throw new ApiError(stored.data, prior.status_code, stored.params);
            return stored;
          }
        }
        // In the transaction: a refused money call rolls its use back; a replay above needs none.
        await stepUpIn(trx, req, owner);
        const data = await handler(ctx(trx));
        if (data instanceof RawJson) throw new Error(`money endpoint ${ep.path} cannot answer raw JSON`);
        const answer: OkAnswer<ResOf<E>> = { msg: 'ok', data };
        if (key) await KEY_ANSWERED(trx, [JSON.stringify(answer), owner.id, key]);
        return answer;
      });
      return run.catch(async (err: unknown) => {
        // A rejection moved nothing (its transaction rolled back) but is an outcome all the same:
        // kept under the key so a replay, and the app's "what became of it" (moneyOutcome), tell
        // the truth instead of "never received". Failures of our own (500) are not kept.
        const kept =
          err instanceof ApiError &&
          err.status < 500 &&
          err.status !== 401 &&
          err.status !== 429 &&
          err.key !== ERR.idempotencyMismatch &&
          // Not an outcome: the same call goes again once the user has proved their factor.
          err.key !== ERR.stepUpRequired;
        const traced = err instanceof RecordedRefusal;
        if (!kept || (!key && !traced)) throw err;
        const rejection = errorAnswer(err);
        // A refusal that leaves a trace (a failed block/QIP order) commits with its key, so a
        // retry replays the refusal rather than recording it twice.
        await withTx(deps.database, async (trx) => {
          if (key) {
            const stored = JSON.stringify(rejection);
            if (!(await claimKey(trx, owner.id, key, requestHash, err.status, stored, deps.clock.now())))
              return;
          }
          if (traced) await (err as RecordedRefusal).record(trx);
        });
        throw err;
      });
    },
  });
}
