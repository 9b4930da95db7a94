import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { SERVER_TIME_HEADER } from '#shared/contract/define';

/**
 * Cross-origin calls to the API from the origins named in CORS_ORIGINS (a hybrid app shell serving
 * the built app from its own origin, SPEC §1): they may send the session's `token`, an
 * `Idempotency-Key` and `Authorization` (the recharge call). A preflight is remembered 10 minutes
 * (WebKit's cap) so a poll does not pay one each time. Any other origin's preflight is refused
 * (403) and its requests get no CORS headers, so its page can neither send the session's headers
 * nor read an answer. Nothing is registered when the list is empty: the app is then served from
 * the API's own origin only.
 */
export async function allowOrigins(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (
      req.method === 'OPTIONS' &&
      origin &&
      req.headers['access-control-request-method'] &&
      !allowed.has(origin)
    )
      return void reply.code(403).send();
    done();
  });
  await app.register(cors, {
    origin: [...origins],
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['content-type', 'token', 'idempotency-key', 'authorization'],
    // The app reads the server's clock from every answer (a hybrid shell's page included).
    exposedHeaders: [SERVER_TIME_HEADER],
    maxAge: 600,
    // The browser keeps no cookie of ours: the session is the token header.
    credentials: false,
  });
}
