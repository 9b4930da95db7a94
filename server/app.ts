import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from 'fastify';
import { ERR } from '#shared/contract/define';
import { refuseFrozen } from './account/freeze';
import { requireTradePassword } from './account/fund-password';
import { takeStepUp } from './account/step-up';
import { opsRoutes } from './backoffice/routes';
import type { Deps } from './deps';
import { allowOrigins } from './lib/cors';
import { answerFor } from './lib/errors';
import type { Metrics } from './lib/metrics';
import { proxyTrust } from './lib/proxies';
import { LOG_REDACT, REQUEST_ID_HEADER, requestIds, requestLogFields } from './lib/request-ids';
import {
  addSecurityHeaders,
  createSecurityHeaders,
  EMBEDDABLE_CSP,
  inlineScriptSources,
  isOpsPath,
  type SecurityHeaders,
} from './lib/security-headers';
import { compileValidator } from './lib/validation';
import { accountRoutes } from './routes/account';
import { ANSWERS } from './routes/answers';
import { configRoutes } from './routes/config';
import { contentRoutes } from './routes/content';
import { fundRoutes } from './routes/funds';
import { investRoutes } from './routes/invest';
import { marketRoutes } from './routes/market';
import { portfolioRoutes } from './routes/portfolio';
import { pushRoutes } from './routes/push';
import { securityRoutes } from './routes/security';
import { settingsRoutes } from './routes/settings';
import { tradingRoutes } from './routes/trading';
import { walletRoutes } from './routes/wallet';
import { watchlistRoutes } from './routes/watchlist';

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
  fundRoutes,
  watchlistRoutes,
  portfolioRoutes,
  securityRoutes,
  pushRoutes,
  // The back office's API, under <API_BASE>/ops: its own sessions, roles and gateway.
  opsRoutes,
];

/**
 * A request for a file, not an app route: under /assets/, or a last segment with a file's
 * extension. App routes may hold dots (`/stock/RELIANCE.NS/IN/…`), so only known extensions count.
 */
export function isFilePath(url: string): boolean {
  if (url.startsWith('/assets/')) return true;
  const last = url.slice(url.lastIndexOf('/') + 1);
  return /\.(js|mjs|css|map|json|webmanifest|html|png|jpe?g|gif|svg|ico|webp|avif|woff2?|ttf|txt|xml|br|gz)$/i.test(
    last,
  );
}

/** The back office's page (its own build: `vite build --mode ops`). */
const OPS_INDEX = '/ops/index.html';

/** Files the browser must revalidate on every load, so a new version is seen at once. */
const NO_CACHE = new Set([
  '/index.html',
  '/iframe.html',
  '/sw.js',
  // Imported by sw.js (pushes, notification clicks): the browser checks imported scripts for updates too.
  '/sw-notify.js',
  '/sw-push.js',
  '/registerSW.js',
  '/manifest.webmanifest',
]);

/** Node's HTTP parser refused the bytes: answer in the envelope, then close the connection. */
function clientError(
  headers: SecurityHeaders,
  requestId: string,
  err: Error & { code?: string },
  socket: Duplex,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const { body } = answerFor({ statusCode: status });
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\n${headers.lines}${REQUEST_ID_HEADER}: ${requestId}\r\n` +
        `Connection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(err);
}

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/**
 * A request's logger (req.log), made only when something logs through it. Fastify gives every
 * request pino's child logger with its request id; making one costs a few µs (an object and the
 * bindings serialised) on every answer, and almost no answer logs anything.
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
  get level(): string {
    return this.made?.level ?? this.options?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  fatal(...args: unknown[]): void {
    (this.real.fatal as (...a: unknown[]) => void)(...args);
  }
  error(...args: unknown[]): void {
    (this.real.error as (...a: unknown[]) => void)(...args);
  }
  warn(...args: unknown[]): void {
    (this.real.warn as (...a: unknown[]) => void)(...args);
  }
  info(...args: unknown[]): void {
    (this.real.info as (...a: unknown[]) => void)(...args);
  }
  debug(...args: unknown[]): void {
    (this.real.debug as (...a: unknown[]) => void)(...args);
  }
  trace(...args: unknown[]): void {
    (this.real.trace as (...a: unknown[]) => void)(...args);
  }
  silent(...args: unknown[]): void {
    (this.real.silent as (...a: unknown[]) => void)(...args);
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

export interface AppOptions {
  logger?: boolean | object;
  /** Prometheus metrics (lib/metrics.ts): every answer counted and timed, refusals by key. */
  metrics?: Metrics | null;
}

export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const dist = deps.config.distDir;
  const indexHtml = path.join(dist, 'index.html');
  const hasDist = fs.existsSync(indexHtml);
  const hasOps = fs.existsSync(path.join(dist, OPS_INDEX));
  const security = createSecurityHeaders({
    hsts: deps.config.production,
    scripts: hasDist ? inlineScriptSources(fs.readFileSync(indexHtml, 'utf8')) : [],
    apiBase: deps.config.apiBase,
  });
  // One answer to "is this sender our proxy?" for X-Forwarded-For and request ids alike.
  const proxies = proxyTrust(deps.config.trustProxy);
  const nextRequestId = requestIds(proxies);
  const app = Fastify({
    // Whatever logger a caller passes (tests pass a stream) keeps the redaction of secrets.
    logger:
      options.logger === false
        ? false
        : {
            level: deps.config.logLevel,
            serializers: { req: requestLogFields },
            ...(typeof options.logger === 'object' ? options.logger : {}),
            redact: LOG_REDACT,
          },
    genReqId: nextRequestId,
    logController: new LogController({ disableRequestLogging: !deps.config.logRequests }),
    childLoggerFactory: (logger, bindings, options) =>
      new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger,
    bodyLimit: 1024 * 1024,
    // Behind proxies the client address comes from X-Forwarded-For, believed only as far as
    // TRUST_PROXY says (a hop count or the proxies' addresses; never every sender).
    trustProxy: proxies,
    // The router's own refusals (a URL that is not valid percent-encoding, a path parameter over
    // maxParamLength) answer in the API's envelope too, not in Fastify's.
    frameworkErrors: (err, req, reply) => {
      const { status, body } = answerFor(err);
      security.applyApi(reply.raw);
      reply.raw.setHeader(REQUEST_ID_HEADER, req.id);
      req.log.info({ status, key: body.data }, 'refused');
      options.metrics?.refusal(body.data, status);
      return (reply as FastifyReply).code(status).send(body);
    },
    // So do requests the HTTP parser itself refuses (oversized headers, broken framing), written
    // straight to the socket since no request exists yet.
    clientErrorHandler: (err, socket) => clientError(security, nextRequestId(), err, socket),
  });
  app.decorate('deps', deps);
  // The gateway's transaction-password check (lib/route.ts knows no account rule).
  app.decorate('tradePasswordCheck', requireTradePassword);
  // The gateway's step-up: a fresh proof of an existing factor, used up by the call.
  app.decorate('stepUpCheck', takeStepUp);
  // A frozen account's money calls are refused before anything else (account/freeze.ts).
  app.decorate('moneyCheck', refuseFrozen);

  // One validation policy (lib/validation.ts): strict bodies, coerced query strings,
  // no NUL, finite numbers.
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema, httpPart));

  // The security headers, the request id and the server's clock: one hook, one write.
  addSecurityHeaders(app, security, () => deps.clock.now());
  options.metrics?.install(app);

  app.setErrorHandler((err, req, reply) => {
    const { status, body, fault, unavailable } = answerFor(err);
    // The server's own faults are errors; a refusal is an info line (its key, never the input).
    // The request id ties either to the answer the caller saw.
    if (fault) req.log.error({ err, reqId: req.id, method: req.method, url: req.url }, 'unhandled error');
    else if (unavailable) {
      // Not a bug of ours, but an operator must hear of it: the code and message, never the row.
      const { code, message } = err as { code?: string; message?: string };
      req.log.warn({ status, code, message, route: req.routeOptions.url }, 'database unavailable');
      options.metrics?.refusal(body.data, status);
    } else {
      req.log.info({ status, key: body.data, method: req.method, route: req.routeOptions.url }, 'refused');
      options.metrics?.refusal(body.data, status);
    }
    return reply.code(status).send(body);
  });

  await allowOrigins(app, deps.config.corsOrigins);

  app.get('/healthz', { schema: { response: { 200: ANSWERS.healthz } } }, async () => ({ ok: true }));
  for (const routes of ROUTES) await app.register(routes);

  const api = deps.config.apiBase;
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each asset (src/build/compression.ts).
      preCompressed: true,
      setHeaders(reply, filePath) {
        const rel = `/${path.relative(dist, filePath).split(path.sep).join('/')}`.replace(/\.(br|gz)$/, '');
        if (NO_CACHE.has(rel) || rel === OPS_INDEX) reply.header('cache-control', 'no-cache');
        else if (rel.startsWith('/assets/') || rel.startsWith('/ops/assets/'))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'public, max-age=3600');
        if (rel === '/iframe.html') reply.header('content-security-policy', EMBEDDABLE_CSP);
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    const page = req.method === 'GET' || req.method === 'HEAD';
    if (url === api || url.startsWith(`${api}/`) || !hasDist || !page) {
      return reply.code(404).send({ msg: 'no', data: ERR.notFound });
    }
    // The back office's own pages (a build of their own, dist/ops; security headers: isOpsPath),
    // before the file rule: its client-side routes are pages too.
    if (isOpsPath(url) && !isFilePath(url)) {
      if (!hasOps) return reply.code(404).send({ msg: 'no', data: ERR.notFound });
      reply.header('cache-control', 'no-cache');
      return reply.sendFile(OPS_INDEX.slice(1));
    }
    // A file that is not there (a script of an earlier release, after a deploy) is a 404, never
    // the app's page: an open tab of that release then fails cleanly and loads the new one.
    if (isFilePath(url)) {
      reply.header('cache-control', 'no-cache');
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    // Client-side routes of the single-page app get the shell.
    reply.header('cache-control', 'no-cache');
    return reply.sendFile('index.html');
  });

  return app;
}
