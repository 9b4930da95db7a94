import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Endpoint, type ReqOf, type ResOf, stableJson } from '#shared/contract/define';
import { PresetHeaders } from './preset-headers';

/**
 * Per-tick snapshots of shared answers (market data: the same for every user). The first request
 * for a validated input in a tick runs the handler and serialises `{ msg: 'ok', data }` once, with
 * an ETag that is a hash of those bytes; every other request for the same input in the same tick is
 * answered from memory (keyed on the validated input, never the raw URL; unknown query parameters
 * are removed by validation, server/lib/validation.ts, so they never make an answer of their own),
 * and a client
 * whose If-None-Match still matches gets a 304 — also across ticks that changed nothing, such as
 * every tick while the market is closed. Handlers must depend on their input and the market only:
 * no user, no database.
 *
 * The floor of a repeated question: once a URL, exactly as sent, has been validated and
 * answered in a tick, the same URL again is answered when it arrives (onRequest), before query
 * parsing, validation and the key are made again — the same URL always validates to the same input,
 * so this is the answer validation would lead to; a URL that carried a parameter the entry does not
 * take is not remembered (an unknown parameter never reaches a key). Each entry keeps its bytes as a Buffer (written
 * as is) and its headers validated once (`PresetHeaders`).
 */
export interface TickSource {
  /** Catches up with the clock (may tick). */
  sync(): void;
  onTick(listener: (at: number) => void): () => void;
}

interface SnapshotStats {
  /** Ticks seen. */
  generation: number;
  /** Handler runs (misses), answers from memory (hits), 304s. */
  computed: number;
  hits: number;
  notModified: number;
}

/**
 * An answer's `data` already serialised (a handler that keeps unchanging parts of a large answer
 * as text between ticks returns this; the text must be valid JSON of the entry's answer type).
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export interface Snapshot {
  /**
   * Registers a shared, public contract entry whose answer comes from the snapshot. `canonical`
   * (for an entry whose parameters spell one question in several ways: a synonym, a parameter
   * another one overrides) maps the validated input to one spelling; the key and the handler see
   * only that, so a parameter it drops never reaches the key.
   */
  route<E extends Endpoint>(
    app: FastifyInstance,
    ep: E,
    handler: (input: ReqOf<E>) => ResOf<E> | RawJson | Promise<ResOf<E> | RawJson>,
    canonical?: (input: ReqOf<E>) => ReqOf<E>,
  ): void;
  stats(): SnapshotStats;
  close(): void;
}

interface Entry {
  /** `{"msg":"ok","data":…}` as UTF-8. */
  body: Buffer;
  etag: string;
  /** ETag, cache-control, content-type and content-length of a 200; ETag and cache-control of a 304. */
  ok: PresetHeaders;
  notModified: PresetHeaders;
}

function entryOf(text: string): Entry {
  const body = Buffer.from(text);
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const common: Array<[string, string]> = [
    ['etag', etag],
    ['cache-control', 'no-cache'],
  ];
  return {
    body,
    etag,
    ok: new PresetHeaders([
      ...common,
      ['content-type', 'application/json; charset=utf-8'],
      ['content-length', String(body.length)],
    ]),
    notModified: new PresetHeaders(common),
  };
}

export interface SnapshotOptions {
  /** Distinct URLs kept per tick; beyond it answers are computed but not kept. */
  maxEntries?: number;
  /**
   * Whether something else in the app adds headers through Fastify's reply on these routes (the
   * CORS plugin does when CORS_ORIGINS names origins): then answers go through `reply.send`, which
   * writes those too. Otherwise (default) an answer is written straight to the response: every
   * header is in Node's store already (`PresetHeaders`, content-length included), so Fastify's
   * send path — content-type parsing, its own length and header merge, one `setHeader` per header
   * it holds — is skipped; onResponse hooks (metrics) and the request log still see the answer.
   */
  replyHeaders?: boolean;
}

/** True when an If-None-Match header names this ETag (weak or strong, or `*`). */
export function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  return text.split(',').some((part) => {
    const tag = part.trim().replace(/^W\//, '');
    return tag === etag || tag === '*';
  });
}

/** The cache key of a validated question to one entry. */
const keyOf = (path: string, input: unknown) => `${path} ${stableJson(input ?? {})}`;

export function createSnapshot(source: TickSource, options: SnapshotOptions = {}): Snapshot {
  const maxEntries = options.maxEntries ?? 2000;
  const direct = !options.replyHeaders;
  /** This tick's answers by validated question (path and input). */
  let entries = new Map<string, Entry>();
  /** The same answers by URL exactly as sent, for URLs already validated this tick. */
  let byUrl = new Map<string, Entry>();
  const stats: SnapshotStats = { generation: 0, computed: 0, hits: 0, notModified: 0 };
  const unsubscribe = source.onTick(() => {
    stats.generation += 1;
    entries = new Map();
    byUrl = new Map();
  });

  function send(reply: FastifyReply, entry: Entry, ifNoneMatch: string | string[] | undefined): FastifyReply {
    const res = reply.raw;
    if (etagMatches(ifNoneMatch, entry.etag)) {
      stats.notModified += 1;
      entry.notModified.apply(res);
      if (!direct) return reply.code(304).send();
      reply.hijack();
      res.writeHead(304);
      res.end();
      return reply;
    }
    entry.ok.apply(res);
    if (!direct) return reply.send(entry.body);
    // Fastify's own send would parse the content type, count the length again and set each header
    // it holds one by one; every header is in the store, written with the head in one pass.
    reply.hijack();
    res.writeHead(200);
    res.end(entry.body);
    return reply;
  }

  /** Requests that carried a query parameter their entry does not take. */
  const unknownParams = new WeakSet<FastifyRequest>();

  /** Remembers the URL of `req` (validated, in the tick `entry` belongs to) as a spelling of it. */
  function alias(req: FastifyRequest, entry: Entry): void {
    if (byUrl.size < maxEntries && !unknownParams.has(req)) byUrl.set(req.url, entry);
  }

  return {
    route(app, ep, handler, canonical = (input) => input) {
      if (ep.method !== 'GET' || ep.auth)
        throw new Error(`${ep.path}: only public GET entries can be shared`);
      const takes = new Set(Object.keys((ep.req as { properties?: object }).properties ?? {}));
      app.route({
        method: 'GET',
        url: app.deps.config.apiBase + ep.path,
        schema: { querystring: ep.req },
        // A URL already validated and answered in this tick, byte for byte: its answer at once.
        onRequest(req, reply, done) {
          source.sync();
          const entry = byUrl.get(req.url);
          if (!entry) return done();
          stats.hits += 1;
          send(reply, entry, req.headers['if-none-match']);
        },
        // Before validation removes them: is any parameter one the entry does not take?
        preValidation(req, _reply, done) {
          for (const name in req.query as object)
            if (!takes.has(name)) {
              unknownParams.add(req);
              break;
            }
          done();
        },
        // After validation, so the key is the validated input (coerced, defaults applied): any
        // spelling of the same question — order, `page=01`, an omitted default — is one entry.
        preHandler(req, reply, done) {
          const entry = entries.get(keyOf(ep.path, canonical((req.query ?? {}) as ReqOf<typeof ep>)));
          if (!entry) return done();
          stats.hits += 1;
          alias(req, entry);
          send(reply, entry, req.headers['if-none-match']);
        },
        async handler(req, reply) {
          const input = canonical((req.query ?? {}) as ReqOf<typeof ep>);
          const key = keyOf(ep.path, input);
          let data: ResOf<typeof ep> | RawJson;
          let generation: number;
          // A tick in the middle of a handler would mix two ticks' prices in one answer: redo it.
          let tries = 0;
          do {
            generation = stats.generation;
            data = await handler(input);
          } while (generation !== stats.generation && ++tries < 3);
          stats.computed += 1;
          const entry = entryOf(
            data instanceof RawJson
              ? `{"msg":"ok","data":${data.text}}`
              : JSON.stringify({ msg: 'ok', data }),
          );
          if (generation === stats.generation && entries.size < maxEntries) {
            entries.set(key, entry);
            alias(req, entry);
          }
          return send(reply, entry, req.headers['if-none-match']);
        },
      });
    },
    stats: () => ({ ...stats }),
    close: unsubscribe,
  };
}
