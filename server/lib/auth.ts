import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ERR } from '../../src/shared/contract/define';
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
  const header = req.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  if (!token || token.length > 128) throw new ApiError(ERR.sessionExpired, 401);
  // Every authenticated call pays this: a prepared read on the sessions primary key.
  const row = await hotReads(deps.database).session(sha256(token));
  if (!row || row.revoked_at !== null || row.expires_at <= deps.clock.now()) {
    throw new ApiError(ERR.sessionExpired, 401);
  }
  return { id: row.id, phone: row.phone };
}

export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers.token;
  return Array.isArray(header) ? header[0] : header;
}
