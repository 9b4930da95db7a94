import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { endpoint } from '#shared/contract/define';
import type { Deps } from '../../server/deps';
import { createSnapshot, etagMatches } from '../../server/lib/snapshot';
import { compileValidator } from '../../server/lib/validation';

/** A tick source driven by the test. */
function source() {
  const listeners = new Set<(at: number) => void>();
  let syncs = 0;
  return {
    sync: () => {
      syncs++;
    },
    onTick(l: (at: number) => void) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    tick: () => {
      for (const l of listeners) l(0);
    },
    syncs: () => syncs,
  };
}

const ep = endpoint<{ price: number; n: number }>()({
  method: 'GET',
  path: '/v2/thing',
  auth: false,
  shared: true,
  req: Type.Object({ n: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })) }),
});

async function appWith(
  handler: (input: { n?: number }) => { price: number; n: number },
  setup: (app: FastifyInstance) => void = () => {},
) {
  const src = source();
  const snap = createSnapshot(src, { maxEntries: 2 });
  const app = Fastify();
  app.decorate('deps', { config: { apiBase: '/api' } } as unknown as Deps);
  // The server's own validation policy (a query parameter the entry does not take is removed).
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema, httpPart));
  app.setErrorHandler((_err, _req, reply) =>
    reply.code(400).send({ msg: 'no', data: 'errors.invalidInput' }),
  );
  setup(app);
  snap.route(app, ep, handler);
  await app.ready();
  return { app, src, snap };
}

describe('per-tick snapshot', () => {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
  });

  it('runs the handler once per tick per URL, serves the same bytes and ETag, and 304s a match', async () => {
    let price = 10;
    let runs = 0;
    const { app, src, snap } = await appWith(({ n = 1 }) => {
      runs++;
      return { price, n };
    });
    close = () => app.close();
    const a = await app.inject({ url: '/api/v2/thing?n=2' });
    const b = await app.inject({ url: '/api/v2/thing?n=2' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ msg: 'ok', data: { price: 10, n: 2 } });
    expect(b.body).toBe(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(a.headers['cache-control']).toBe('no-cache');
    expect(runs).toBe(1);
    expect(src.syncs()).toBe(2);

    const c = await app.inject({
      url: '/api/v2/thing?n=2',
      headers: { 'if-none-match': String(a.headers.etag) },
    });
    expect(c.statusCode).toBe(304);
    expect(c.body).toBe('');
    expect(runs).toBe(1);

    // A tick that changes nothing: the handler runs again, the ETag is the same, still a 304.
    src.tick();
    const d = await app.inject({
      url: '/api/v2/thing?n=2',
      headers: { 'if-none-match': String(a.headers.etag) },
    });
    expect(d.statusCode).toBe(304);
    expect(runs).toBe(2);

    // A tick that changes the answer: a new body and a new ETag.
    price = 11;
    src.tick();
    const e = await app.inject({
      url: '/api/v2/thing?n=2',
      headers: { 'if-none-match': String(a.headers.etag) },
    });
    expect(e.statusCode).toBe(200);
    expect(e.json().data.price).toBe(11);
    expect(e.headers.etag).not.toBe(a.headers.etag);
    expect(snap.stats()).toMatchObject({ generation: 2, computed: 3, hits: 2, notModified: 2 });
  });

  it('validates input before anything is kept, and stops keeping answers past its size', async () => {
    let runs = 0;
    const { app } = await appWith(({ n = 1 }) => {
      runs++;
      return { price: 1, n };
    });
    close = () => app.close();
    expect((await app.inject({ url: '/api/v2/thing?n=9' })).statusCode).toBe(400);
    expect((await app.inject({ url: '/api/v2/thing?n=9' })).statusCode).toBe(400);
    expect(runs).toBe(0);
    for (const n of [1, 2, 3, 3, 3]) await app.inject({ url: `/api/v2/thing?n=${n}` });
    // n=1 and n=2 are kept; n=3 is past the limit and computed each time.
    expect(runs).toBe(5);
  });

  it('reads If-None-Match lists and weak tags', () => {
    expect(etagMatches('"a", W/"b"', '"b"')).toBe(true);
    expect(etagMatches(['"x"', '"a"'], '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"c"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });

  it('keys on the validated input, not the URL: spellings share one entry, unknown parameters are ignored', async () => {
    let runs = 0;
    let validated = 0;
    const inputs: object[] = [];
    const { app, snap } = await appWith(
      (input) => {
        runs++;
        inputs.push({ ...input });
        return { price: 1, n: input.n ?? 1 };
      },
      (app) =>
        app.addHook('preValidation', (_req, _reply, done) => {
          validated++;
          done();
        }),
    );
    close = () => app.close();
    const first = await app.inject({ url: '/api/v2/thing?n=2' });
    for (const url of ['/api/v2/thing?n=02', '/api/v2/thing?n=2.0', '/api/v2/thing?n=%32']) {
      const res = await app.inject({ url });
      expect(res.body, url).toBe(first.body);
    }
    expect(runs).toBe(1);
    // No parameter and its default are one question too.
    await app.inject({ url: '/api/v2/thing' });
    await app.inject({ url: '/api/v2/thing?' });
    expect(runs).toBe(2);
    // Junk parameters cannot make new entries: validation removes them, so each is the question
    // without them, answered from its entry; nor is their URL remembered (validated every time).
    const before = validated;
    for (let i = 0; i < 10; i++) {
      const junk = await app.inject({ url: `/api/v2/thing?n=2&cb=${i % 2}` });
      expect(junk.statusCode).toBe(200);
      expect(junk.body).toBe(first.body);
    }
    expect(validated - before).toBe(10);
    expect(runs).toBe(2);
    expect(snap.stats().computed).toBe(2);
    // A miss with junk computes the question without it: the handler never sees the parameter.
    await app.inject({ url: '/api/v2/thing?n=3&cb=1' });
    expect(inputs).toEqual([{ n: 2 }, {}, { n: 3 }]);
  });

  it('answers a URL already answered in this tick before validation, with the same bytes and headers', async () => {
    let runs = 0;
    let price = 1;
    let validated = 0;
    const { app, src, snap } = await appWith(
      ({ n = 1 }) => {
        runs++;
        return { price, n };
      },
      (app) =>
        app.addHook('preValidation', (_req, _reply, done) => {
          validated++;
          done();
        }),
    );
    close = () => app.close();
    const headersOf = (res: { headers: Record<string, unknown> }) => {
      const { date: _date, ...rest } = res.headers;
      return rest;
    };
    const first = await app.inject({ url: '/api/v2/thing?n=2' });
    expect(validated).toBe(1);
    const again = await app.inject({ url: '/api/v2/thing?n=2' });
    expect(validated).toBe(1);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(headersOf(again)).toEqual(headersOf(first));
    expect(headersOf(first)).toEqual({
      etag: first.headers.etag,
      'cache-control': 'no-cache',
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(first.rawPayload.length),
      connection: 'keep-alive',
    });
    // Another spelling is validated and keyed once, then answered at once too.
    const spelt = await app.inject({ url: '/api/v2/thing?n=02' });
    await app.inject({ url: '/api/v2/thing?n=02' });
    expect(validated).toBe(2);
    expect(spelt.body).toBe(first.body);
    const revalidated = await app.inject({
      url: '/api/v2/thing?n=02',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.etag).toBe(first.headers.etag);
    expect(revalidated.headers['content-type']).toBeUndefined();
    expect(runs).toBe(1);
    expect(snap.stats()).toMatchObject({ computed: 1, hits: 4, notModified: 1 });
    // A tick forgets the URLs with the answers: the next call is validated and computed again.
    price = 2;
    src.tick();
    const next = await app.inject({ url: '/api/v2/thing?n=2' });
    expect(next.json()).toEqual({ msg: 'ok', data: { price: 2, n: 2 } });
    expect(validated).toBe(3);
    expect(runs).toBe(2);
  });
});
