import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  type Endpoint,
  ERR,
  type OkAnswer,
  type ReqOf,
  type ResOf,
  stableJson,
} from '../../src/shared/contract/define';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type AuthUser, authenticate } from './auth';
import { ApiError } from './errors';
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

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * Body fields that are secrets stay out of the stored request hash: a 6-digit transaction
 * password hashed beside otherwise known fields could be recovered by trying all codes.
 */
const SECRET_FIELDS = ['stock_password'];
const withoutSecrets = (input: unknown): unknown =>
  input !== null && typeof input === 'object' && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([k]) => !SECRET_FIELDS.includes(k)))
    : input;

/**
 * Registers one contract entry: validation by its schema, the session check, the `{ msg, data }`
 * envelope, and for money endpoints one transaction around the handler with Idempotency-Key
 * replay (same key + same body → the first answer; same key + other body → rejected).
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  ep: E,
  handler: (ctx: RouteContext<E>) => Promise<ResOf<E> | RawJson>,
): void {
  const deps = app.deps;
  app.route({
    method: ep.method,
    url: deps.config.apiBase + ep.path,
    // A multipart body is read by the handler (req.file()), not validated as JSON.
    schema: ep.method === 'GET' ? { querystring: ep.req } : ep.upload ? {} : { body: ep.req },
    handler: async (req, reply) => {
      let user: AuthUser | null = null;
      if (ep.auth) user = await authenticate(deps, req);
      const input = ((ep.method === 'GET' ? req.query : req.body) ?? {}) as ReqOf<E>;
      const ctx = (db: Kysely<DB>): RouteContext<E> => ({
        input,
        get user(): AuthUser {
          if (!user) throw new ApiError(ERR.sessionExpired, 401);
          return user;
        },
        db,
        deps,
        req,
        reply,
      });
      if (!ep.money) {
        const data = await handler(ctx(deps.database.db));
        if (data instanceof RawJson) {
          // Already serialised by a cache: only the envelope is added, byte for byte JSON.
          reply.header('content-type', 'application/json; charset=utf-8');
          return `{"msg":"ok","data":${data.text}}`;
        }
        return { msg: 'ok', data } satisfies OkAnswer<ResOf<E>>;
      }
      if (!user) throw new Error(`money endpoint ${ep.path} must require a session`);
      const owner = user;
      const rawKey = req.headers['idempotency-key'];
      const key = Array.isArray(rawKey) ? rawKey[0] : rawKey;
      if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) throw new ApiError(ERR.invalidInput, 400);
      const requestHash = createHash('sha256')
        .update(`${ep.method} ${ep.path} ${stableJson(withoutSecrets(input))}`)
        .digest('hex');
      return withTx(deps.database, async (trx) => {
        if (key) {
          const inserted = await trx
            .insertInto('idempotency_keys')
            .values({
              user_id: owner.id,
              key,
              request_hash: requestHash,
              status_code: 0,
              response: '',
              created_at: deps.clock.now(),
            })
            .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
            const prior = await trx
              .selectFrom('idempotency_keys')
              .select(['request_hash', 'response'])
              .where('user_id', '=', owner.id)
              .where('key', '=', key)
              .executeTakeFirstOrThrow();
            if (prior.request_hash !== requestHash) throw new ApiError(ERR.idempotencyMismatch, 422);
            reply.header('idempotent-replay', 'true');
            return JSON.parse(prior.response) as OkAnswer<ResOf<E>>;
          }
        }
        const data = await handler(ctx(trx));
        if (data instanceof RawJson) throw new Error(`money endpoint ${ep.path} cannot answer raw JSON`);
        const answer: OkAnswer<ResOf<E>> = { msg: 'ok', data };
        if (key) {
          await trx
            .updateTable('idempotency_keys')
            .set({ status_code: 200, response: JSON.stringify(answer) })
            .where('user_id', '=', owner.id)
            .where('key', '=', key)
            .execute();
        }
        return answer;
      });
    },
  });
}
