import { hash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { ERR } from '#shared/contract/define';
import { hotReads } from '../db/hot';
import type { DB, SessionStage } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from './errors';
import { type CachedSession, SessionCache } from './session-cache';

export interface AuthUser {
  id: number;
  phone: string;
  /** `full`, or the password-only step of a two-factor sign-in it is at (db/schema SessionStage). */
  stage: SessionStage;
}

/** A step session's stages an endpoint is also open to (its contract entry's `steps`). */
export type StepStages = ReadonlyArray<Exclude<SessionStage, 'full'>>;

/** Hex SHA-256 in one call (no Hash object per session lookup). */
export const sha256 = (text: string) => hash('sha256', text, 'hex');

/** 256 random bits; only the hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A new session of `userId`: full (TOKEN_TTL_MS), or a password-only step of a two-factor
 * sign-in, which lasts `config.twoFactor.stepTtlMs` and opens only its step's endpoints.
 */
export async function createSession(
  deps: Deps,
  userId: number,
  options: { stage?: SessionStage; db?: Kysely<DB>; device?: string } = {},
): Promise<{ token: string; expiresAt: number }> {
  const { stage = 'full', db = deps.database.db, device = null } = options;
  const token = newToken();
  const now = deps.clock.now();
  const expiresAt = now + (stage === 'full' ? deps.config.tokenTtlMs : deps.config.twoFactor.stepTtlMs);
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
      stage,
      device,
    })
    .execute();
  return { token, expiresAt };
}

const caches = new WeakMap<Deps, SessionCache>();

/** This server's memory of valid sessions (lib/session-cache.ts), made on first use. */
export function sessionCache(deps: Deps): SessionCache {
  let cache = caches.get(deps);
  if (!cache) {
    cache = new SessionCache(
      deps.config.sessionCacheMs,
      () => deps.clock.now(),
      deps.database.dialect === 'postgres',
    );
    caches.set(deps, cache);
  }
  return cache;
}

/**
 * The user of a valid `token` header, or a 401 `logout` answer. A step session (a password without
 * its second factor) is refused (`errors.secondFactorRequired`) unless its stage is in `steps`.
 */
export async function authenticate(
  deps: Deps,
  req: FastifyRequest,
  steps: StepStages = [],
): Promise<AuthUser> {
  return authenticateRemembered(deps, req, steps) ?? (await authenticateReading(deps, req, steps));
}

/**
 * `authenticate` without waiting for anything, the answer of almost every call of a polling app:
 * the session is remembered (SESSION_CACHE_MS) and its last use needs no refresh. Undefined when
 * the database must be asked or written; refuses (throws) exactly as `authenticate` does.
 */
export function authenticateRemembered(
  deps: Deps,
  req: FastifyRequest,
  steps: StepStages = [],
): AuthUser | undefined {
  const token = tokenOf(req);
  if (!token || token.length > 128) throw new ApiError(ERR.sessionExpired, 401);
  const session = sessionCache(deps).get(token);
  if (session === undefined) return undefined;
  check(deps, session);
  if (session.stage !== 'full' && !steps.includes(session.stage))
    throw new ApiError('errors.secondFactorRequired', 401);
  if (seenIsDue(deps, session)) return undefined;
  return { id: session.id, phone: session.phone, stage: session.stage };
}

/** Production also ends a session left unused (SESSION_IDLE_MS): is its last use due a refresh? */
function seenIsDue(deps: Deps, session: CachedSession): boolean {
  return deps.config.sessionIdleMs > 0 && deps.clock.now() - session.last_seen_at >= SEEN_EVERY_MS;
}

/** `authenticate` when the session must be read (not remembered) or its last use written. */
async function authenticateReading(deps: Deps, req: FastifyRequest, steps: StepStages): Promise<AuthUser> {
  const token = tokenOf(req);
  if (!token || token.length > 128) throw new ApiError(ERR.sessionExpired, 401);
  const cache = sessionCache(deps);
  let session = cache.get(token);
  if (session === undefined) {
    const mark = cache.mark();
    const hash = sha256(token);
    // A prepared read on the sessions primary key, paid once per SESSION_CACHE_MS per session.
    const row = await hotReads(deps.database).session(hash);
    // A key no session ever had (a typo, another server's token) is told apart from one that ended.
    if (!row) throw new ApiError(ERR.authKeyIncorrect, 401);
    check(deps, row);
    cache.put(token, hash, row, mark);
    session = row;
  } else {
    check(deps, session);
  }
  if (session.stage !== 'full' && !steps.includes(session.stage))
    throw new ApiError('errors.secondFactorRequired', 401);
  // Refreshed at most once a minute, so a polling app does not write on every call.
  if (seenIsDue(deps, session)) {
    // Set first, so calls arriving during the write do not write again.
    session.last_seen_at = deps.clock.now();
    await deps.database.db
      .updateTable('sessions')
      .set({ last_seen_at: session.last_seen_at })
      .where('token_hash', '=', sha256(token))
      .execute();
  }
  return { id: session.id, phone: session.phone, stage: session.stage };
}

/** Refuses a session that was revoked, has expired, or was left unused past the idle limit. */
function check(deps: Deps, session: CachedSession): void {
  const now = deps.clock.now();
  if (session.revoked_at !== null || session.expires_at <= now) {
    throw new ApiError(ERR.sessionExpired, 401);
  }
  const idleMs = deps.config.sessionIdleMs;
  if (idleMs > 0 && now - session.last_seen_at >= idleMs) throw new ApiError(ERR.sessionExpired, 401);
}

/** How stale `last_seen_at` may get before a call refreshes it (the idle limit's resolution). */
const SEEN_EVERY_MS = 60_000;

/**
 * The `token` header. Sent twice it is no token: over HTTP Node joins the copies into one value
 * that matches no session, and a caller that hands in an array is treated the same.
 */
export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers.token;
  return Array.isArray(header) ? undefined : header;
}
