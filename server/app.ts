import fs from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Ajv from 'ajv';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { ERR } from '../src/shared/contract/define';
import type { Deps } from './deps';
import { ApiError } from './lib/errors';
import { accountRoutes } from './routes/account';
import { configRoutes } from './routes/config';
import { contentRoutes } from './routes/content';
import { investRoutes } from './routes/invest';
import { marketRoutes } from './routes/market';
import { settingsRoutes } from './routes/settings';
import { tradingRoutes } from './routes/trading';
import { walletRoutes } from './routes/wallet';

/** Route plugins, one per resource. */
const ROUTES = [
  accountRoutes,
  configRoutes,
  marketRoutes,
  walletRoutes,
  settingsRoutes,
  contentRoutes,
  tradingRoutes,
  investRoutes,
];

/** Files the browser must revalidate on every load, so a new version is seen at once. */
const NO_CACHE = new Set([
  '/index.html',
  '/iframe.html',
  '/sw.js',
  '/registerSW.js',
  '/manifest.webmanifest',
]);

export interface AppOptions {
  logger?: boolean | object;
}

export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? { level: deps.config.logLevel },
    bodyLimit: 1024 * 1024,
    // Behind one load balancer/proxy the client address comes from X-Forwarded-For.
    trustProxy: process.env.TRUST_PROXY === '1',
  });
  app.decorate('deps', deps);

  // Bodies are checked strictly: no type coercion (a number is not a phone) and unknown fields
  // are rejected, so nothing can be mass-assigned. Query strings arrive as text, so they coerce.
  const strict = new Ajv({
    allErrors: false,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: true,
  });
  const lenient = new Ajv({
    allErrors: false,
    coerceTypes: 'array',
    removeAdditional: false,
    useDefaults: true,
  });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : lenient).compile(schema),
  );

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Inline style attributes (progress bars, chart sizes) only; no inline script anywhere.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // The quote widget is meant to be embedded by partner pages; it sets its own frame-ancestors.
    frameguard: false,
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (err instanceof ApiError) {
      const msg = err.status === 401 ? 'logout' : 'no';
      return reply
        .code(err.status)
        .send(err.params ? { msg, data: err.key, params: err.params } : { msg, data: err.key });
    }
    if ((err as FastifyError).validation) return reply.code(400).send({ msg: 'no', data: ERR.invalidInput });
    const status = (err as FastifyError).statusCode ?? 500;
    if (status < 500) {
      return reply
        .code(status)
        .send({ msg: 'no', data: status === 413 ? 'errors.tooLarge' : ERR.invalidInput });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ msg: 'no', data: ERR.server });
  });

  app.get('/healthz', async () => ({ ok: true }));
  for (const routes of ROUTES) await app.register(routes);

  const api = deps.config.apiBase;
  const dist = deps.config.distDir;
  const hasDist = fs.existsSync(path.join(dist, 'index.html'));
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each asset (vite.config.ts precompress).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const rel = `/${path.relative(dist, filePath).split(path.sep).join('/')}`.replace(/\.(br|gz)$/, '');
        if (NO_CACHE.has(rel)) reply.header('cache-control', 'no-cache');
        else if (rel.startsWith('/assets/'))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'public, max-age=3600');
        if (rel === '/iframe.html') {
          const csp = String(reply.getHeader('content-security-policy') ?? '');
          reply.header('content-security-policy', csp.replace("frame-ancestors 'self'", 'frame-ancestors *'));
        }
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (url === api || url.startsWith(`${api}/`) || !hasDist || req.method !== 'GET') {
      return reply.code(404).send({ msg: 'no', data: ERR.notFound });
    }
    // Client-side routes of the single-page app get the shell.
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });

  return app;
}
