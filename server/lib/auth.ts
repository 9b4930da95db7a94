import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ERR } from '#shared/contract/define';
import { hotReads } from '../db/hot';
import type { Deps } from '../deps';
import { ApiError } from './errors';

export interface AuthUser {
  id: number;
  phone: string;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** 256 random bits; only the hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function createSession(deps: Deps, userId: number): Promise<string> {
  const token = newToken();
  const now = deps.clock.now();
  await deps.database.db
    .insertInto('sessions')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      created_at: now,
      expires_at: now + deps.config.tokenTtlMs,
      revoked_at: null,
    })
    .execute();
  return token;
}

/** The user of a valid `token` header, or a 401 `logout` answer. */
export async function authenticate(deps: Deps, req: FastifyRequest): Promise<AuthUser> {
  const token = tokenOf(req);
  if (!token || token.length > 128) throw new ApiError(ERR.sessionExpired, 401);
  // Every authenticated call pays this: a prepared read on the sessions primary key.
  const row = await hotReads(deps.database).session(sha256(token));
  // A key no session ever had (a typo, another server's token) is told apart from one that ended.
  if (!row) throw new ApiError(ERR.authKeyIncorrect, 401);
  const now = deps.clock.now();
  if (row.revoked_at !== null || row.expires_at <= now) {
    throw new ApiError(ERR.sessionExpired, 401);
  }
  // Production also ends a session left unused (SESSION_IDLE_MS), beside its absolute lifetime.
  const idleMs = deps.config.sessionIdleMs;
  if (idleMs > 0) {
    if (now - row.last_seen_at >= idleMs) throw new ApiError(ERR.sessionExpired, 401);
    // Refreshed at most once a minute, so a polling app does not write on every call.
    if (now - row.last_seen_at >= SEEN_EVERY_MS) {
      await deps.database.db
        .updateTable('sessions')
        .set({ last_seen_at: now })
        .where('token_hash', '=', sha256(token))
        .execute();
    }
  }
  return { id: row.id, phone: row.phone };
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
