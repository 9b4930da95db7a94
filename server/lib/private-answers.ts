import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { PresetHeaders } from './preset-headers';

/**
 * Answers that belong to one caller (everything a session reads or writes, and the sign-in calls
 * that hand out a token) must never be kept by a browser's or a proxy's cache (ASVS 14.3.2):
 * `Cache-Control: no-store`, and `Vary` naming the headers that carry the caller's credentials,
 * so a cache that ignores no-store still cannot hand one caller's answer to another. Public GETs
 * (market snapshots, news, config) keep their own policy: they are the same for everyone.
 */
const PRIVATE_VARY = 'token, authorization';
export const PRIVATE_ANSWER_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['cache-control', 'no-store'],
  ['vary', PRIVATE_VARY],
];

const preset = new PresetHeaders(PRIVATE_ANSWER_HEADERS);

/**
 * A route's onRequest hook: the headers are set before anything else runs, so refusals of the
 * route (401, 400 from validation, 429) carry them as well as its answers.
 */
export function privateAnswer(
  _req: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  markPrivate(reply);
  done();
}

/** The private answer's headers on `reply` (what `privateAnswer` does, for a hook doing more). */
export function markPrivate(reply: FastifyReply): void {
  // A Vary set before (the CORS plugin names Origin, through Fastify's own headers, which are
  // written over the raw ones) is kept, with the credentials' headers after it, on Fastify's side
  // so neither replaces the other.
  const prior = reply.getHeader('vary');
  preset.apply(reply.raw);
  if (prior !== undefined) reply.header('vary', mergeVary(String(prior), PRIVATE_VARY));
}

/** Two Vary lists as one, each name once (compared without case), in the order first seen. */
function mergeVary(...lists: string[]): string {
  const seen = new Map<string, string>();
  for (const name of lists.join(',').split(',')) {
    const trimmed = name.trim();
    if (trimmed && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()].join(', ');
}
