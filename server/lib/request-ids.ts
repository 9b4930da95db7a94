import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ProxyTrust } from './proxies';

/**
 * Request ids: every answer carries its id in `x-request-id`, and every log line about a request
 * (a refusal, a fault) names it, so a user's report ("request id 3f9a…-1k") finds its line.
 * Ids are unique across instances and restarts (a random prefix per process, then a counter),
 * not only within one process as Fastify's default `req-1`, `req-2` is. Behind a proxy the
 * operator trusts (TRUST_PROXY), an id the proxy sent is kept, so its access log and ours agree —
 * only when the connection comes from that proxy (lib/proxies.ts).
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an id from a trusted proxy may look like: short, printable, nothing a log could trip on. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function requestIds(trust: ProxyTrust | false): (req?: IncomingMessage) => string {
  const prefix = randomBytes(4).toString('hex');
  let next = 0;
  return (req) => {
    // Only the connection's own peer can be the proxy that set the id:
    // anyone else reaching the server directly would choose what the logs call their request.
    if (trust && req && trust(req.socket.remoteAddress ?? '', 0)) {
      const sent = req.headers[REQUEST_ID_HEADER];
      if (typeof sent === 'string' && FORWARDED_ID.test(sent)) return sent;
    }
    next += 1;
    return `${prefix}-${next.toString(36)}`;
  };
}

/**
 * Paths of log fields that may hold a secret or a customer's data: a PostgreSQL error's `detail`
 * repeats the row it refused (a unique card number, say); headers carry the session token.
 * Pino removes them before a line is written.
 */
export const LOG_REDACT = {
  paths: [
    'err.detail',
    'err.parameters',
    'req.headers.token',
    'req.headers.authorization',
    'req.headers.cookie',
    'headers.token',
    'headers.authorization',
  ],
  censor: '[redacted]',
};

/**
 * The incoming-request line (LOG_REQUESTS=1): Fastify's own fields, plus `session`, a short tag of
 * the `token` header (the first 12 hex digits of its SHA-256) when one was sent. It tells one
 * session's requests from another's (a device polling twice, a stranger on the port) without
 * writing the token: the tag cannot be turned back into it, nor used in its place.
 */
export function requestLogFields(req: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
  socket?: { remotePort?: number };
}) {
  const token = req.headers.token;
  return {
    method: req.method,
    url: req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
    ...(typeof token === 'string' && token ? { session: sessionTag(token) } : {}),
  };
}

/** The log's tag of a session token (requestLogFields). */
export function sessionTag(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 12);
}
