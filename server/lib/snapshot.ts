import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type Endpoint, type ReqOf, type ResOf, stableJson } from '#shared/contract/define';

/**
 * Per-tick snapshots of shared answers (market data: the same for every user). The first request
 * for a validated input in a tick runs the handler and serialises `{ msg: 'ok', data }` once, with
 * an ETag that is a hash of those bytes; every other request for the same input in the same tick is
 * answered from memory (keyed on the validated input, never the raw URL; unknown query parameters
 * are refused), and a client
 * whose If-None-Match still matches gets a 304 — also across ticks that changed nothing, such as
 * every tick while the market is closed. Handlers must depend on their input and the market only:
 * no user, no database.
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
  /** Registers a shared, public contract entry whose answer comes from the snapshot. */
  route<E extends Endpoint>(
    app: FastifyInstance,
    ep: E,
    handler: (input: ReqOf<E>) => ResOf<E> | RawJson | Promise<ResOf<E> | RawJson>,
  ): void;
  stats(): SnapshotStats;
  close(): void;
}

interface Entry {
  body: string;
  etag: string;
}

export interface SnapshotOptions {
  /** Distinct URLs kept per tick; beyond it answers are computed but not kept. */
  maxEntries?: number;
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
  let entries = new Map<string, Entry>();
  const stats: SnapshotStats = { generation: 0, computed: 0, hits: 0, notModified: 0 };
  const unsubscribe = source.onTick(() => {
    stats.generation += 1;
    entries = new Map();
  });

  function send(reply: FastifyReply, entry: Entry, ifNoneMatch: string | string[] | undefined): FastifyReply {
    reply.header('etag', entry.etag);
    reply.header('cache-control', 'no-cache');
    if (etagMatches(ifNoneMatch, entry.etag)) {
      stats.notModified += 1;
      return reply.code(304).send();
    }
    return reply.header('content-type', 'application/json; charset=utf-8').send(entry.body);
  }

  return {
    route(app, ep, handler) {
      if (ep.method !== 'GET' || ep.auth)
        throw new Error(`${ep.path}: only public GET entries can be shared`);
      app.route({
        method: 'GET',
        url: app.deps.config.apiBase + ep.path,
        // Unknown parameters are refused: each would otherwise make an answer of its own.
        schema: { querystring: { ...ep.req, additionalProperties: false } },
        // After validation, so the key is the validated input (coerced, defaults applied): any
        // spelling of the same question — order, `page=01`, an omitted default — is one entry.
        preHandler(req, reply, done) {
          source.sync();
          const entry = entries.get(keyOf(ep.path, req.query));
          if (!entry) return done();
          stats.hits += 1;
          send(reply, entry, req.headers['if-none-match']);
        },
        async handler(req, reply) {
          const input = (req.query ?? {}) as ReqOf<typeof ep>;
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
          const body =
            data instanceof RawJson
              ? `{"msg":"ok","data":${data.text}}`
              : JSON.stringify({ msg: 'ok', data });
          const entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
          if (generation === stats.generation && entries.size < maxEntries) entries.set(key, entry);
          return send(reply, entry, req.headers['if-none-match']);
        },
      });
    },
    stats: () => ({ ...stats }),
    close: unsubscribe,
  };
}
