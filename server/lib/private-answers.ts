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
  // A Vary set before (CORS names Origin) is kept, with the credentials' headers after it.
  const prior = reply.raw.getHeader('vary');
  preset.apply(reply.raw);
  if (prior !== undefined) reply.raw.setHeader('vary', `${String(prior)}, ${PRIVATE_VARY}`);
  done();
}
