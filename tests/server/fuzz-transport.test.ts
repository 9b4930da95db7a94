import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERR } from '#shared/contract/define';
import { contract, type Endpoint } from '#shared/contract/index';
import { refusalProblem, tableDigest } from '../support/fuzz';
import { objectBranches, type Schema, validRequest } from '../support/schemas';
import { DIALECTS, startTestServer, type TestServer } from '../support/server';
import { credit, idem } from '../support/trading';
import { multipartBody, PNG } from '../support/wallet';

/**
 * Malformed requests at the transport, for every contract endpoint: the wrong method;
 * the right fields in every content type but JSON (text, HTML, XML, bytes, form-encoded,
 * multipart with and without a boundary, none at all); JSON that is truncated, not JSON, nested
 * past reason, prototype-poisoning or over the body limit; query parameters repeated, badly
 * percent-encoded, holding NUL or oversized; `token` and `Idempotency-Key` headers that are empty,
 * oversized, repeated or otherwise not valid; URLs the router cannot decode; and, over a real
 * socket, bytes Node's HTTP parser refuses. Each must be refused with a 4xx `{ msg: 'no', data }`
 * (`logout` with 401) whose key all four locales translate, and nothing may be written.
 * fuzz.test.ts covers bad values inside well-formed JSON.
 */

type Headers = Record<string, string | string[]>;
interface Case {
  label: string;
  method: string;
  /** Path and query under the API base. */
  url: string;
  headers: Headers;
  payload?: string | Buffer;
}

/** Placeholders the cases carry; the suite puts the signed-in user's token in. */
const TOKEN = '<token>';
const BOUNDARY = 'fuzzboundary42';
const BODY_LIMIT = 1024 * 1024;

const jsonType = { 'content-type': 'application/json' };

function formEncoded(input: Record<string, unknown>): string {
  return new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)])).toString();
}

interface Part {
  name: string;
  filename?: string;
  type?: string;
  body: string | Buffer;
}
const multipartType = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

/** A well-formed multipart body of these parts. */
function form(parts: Part[]): Buffer {
  return Buffer.concat([
    ...parts.flatMap((p) => [
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"` +
          `${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
      Buffer.from(p.body),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
}

const multipartFields = (input: Record<string, unknown>) =>
  form(Object.entries(input).map(([name, v]) => ({ name, body: String(v) })));

/** Every existing method + path: another method on a path is only "wrong" where no route has it. */
const ROUTES = new Set((Object.values(contract) as Endpoint[]).map((ep) => `${ep.method} ${ep.path}`));

function casesFor(name: string, ep: Endpoint): Case[] {
  const out: Case[] = [];
  const auth: Headers = ep.auth ? { token: TOKEN } : {};
  const add = (label: string, c: Omit<Case, 'label'>) => out.push({ label: `${name}: ${label}`, ...c });
  const valid = ep.upload ? {} : validRequest(ep);
  const validJson = JSON.stringify(valid);
  const query = ep.method === 'GET' ? formEncoded(valid) : '';
  const url = query ? `${ep.path}?${query}` : ep.path;

  // Methods: the right request under a method no route of this path answers.
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    if (method === ep.method || ROUTES.has(`${method} ${ep.path}`)) continue;
    add(
      `${method} instead of ${ep.method}`,
      method === 'GET'
        ? { method, url: `${ep.path}?${formEncoded(valid)}`, headers: auth }
        : { method, url, headers: { ...auth, ...jsonType, ...idem() }, payload: validJson },
    );
  }

  // URLs the router cannot decode or does not know.
  for (const [label, path] of [
    ['bad percent-encoding', `${ep.path}%`],
    ['bad percent-encoding %zz', `${ep.path}%zz`],
    ['encoded NUL', `${ep.path}%00`],
    ['trailing slash', `${ep.path}/`],
    ['upper case', ep.path.toUpperCase()],
    ['double slash', `/${ep.path}`],
  ] as const) {
    add(label, {
      method: ep.method,
      url: ep.method === 'GET' ? `${path}${query ? `?${query}` : ''}` : path,
      headers: { ...auth, ...(ep.method === 'POST' ? { ...jsonType, ...idem() } : {}) },
      ...(ep.method === 'POST' ? { payload: validJson } : {}),
    });
  }

  // Headers: the right request with a token that is not one.
  if (ep.auth) {
    const tokens: [string, string | string[] | undefined][] = [
      ['no token', undefined],
      ['empty token', ''],
      ['token "null"', 'null'],
      ['token of 129 characters', 'x'.repeat(129)],
      ['token of 8 KB', 'x'.repeat(8192)],
      ['token with SQL', "' or '1'='1"],
      ['Bearer token', `Bearer ${TOKEN}`],
      ['token twice', [TOKEN, TOKEN]],
      ['token cut short', `${TOKEN}<cut>`],
    ];
    for (const [label, token] of tokens) {
      const headers: Headers = token === undefined ? {} : { token };
      if (ep.upload) {
        const mp = multipartBody(PNG);
        add(label, { method: 'POST', url, headers: { ...headers, ...mp.headers }, payload: mp.payload });
      } else if (ep.method === 'POST') {
        add(label, {
          method: 'POST',
          url,
          headers: { ...headers, ...jsonType, ...idem() },
          payload: validJson,
        });
      } else {
        add(label, { method: 'GET', url, headers });
      }
    }
  }

  // Headers: the right money request with an Idempotency-Key that is not one.
  if (ep.money) {
    const keys: [string, string | string[]][] = [
      ['empty key', ''],
      ['key of 7 characters', 'abcdefg'],
      ['key of 101 characters', 'k'.repeat(101)],
      ['key with spaces', 'key with spaces'],
      ['key with a path', '../../etc/passwd'],
      ['key with latin-1 bytes', 'key-\u00e9\u00e9\u00e9\u00e9\u00e9'],
      ['key with SQL', "k'); drop table users; --"],
      ['key twice (same)', ['abcdefgh-1234', 'abcdefgh-1234']],
      ['key twice (different)', ['abcdefgh-1234', 'abcdefgh-5678']],
    ];
    for (const [label, key] of keys) {
      add(label, {
        method: 'POST',
        url,
        headers: { ...auth, ...jsonType, 'idempotency-key': key },
        payload: validJson,
      });
    }
  }

  if (ep.method === 'GET') {
    // Query parameters: each declared one repeated, badly encoded, with NUL, or oversized.
    const props = new Set(objectBranches(ep.req as Schema).flatMap((b) => Object.keys(b.properties ?? {})));
    for (const p of props) {
      const v = String(valid[p] ?? '1');
      const rest = formEncoded(Object.fromEntries(Object.entries(valid).filter(([k]) => k !== p)));
      const q = (text: string) => `${ep.path}?${rest ? `${rest}&` : ''}${text}`;
      for (const [label, text] of [
        [`${p} repeated`, `${p}=${encodeURIComponent(v)}&${p}=${encodeURIComponent(v)}`],
        [`${p} three times`, `${p}=1&${p}=2&${p}=3`],
        [`${p} with NUL`, `${p}=${encodeURIComponent(v)}%00`],
        [`${p} as NUL`, `${p}=%00`],
        [`${p} of 100 KB`, `${p}=${'9'.repeat(100_000)}`],
      ] as const) {
        add(label, { method: 'GET', url: q(text), headers: auth });
      }
    }
    return out;
  }

  const post = (label: string, headers: Headers, payload: string | Buffer) => {
    // A mutation that leaves the valid request as it was (quotes in `{}`) is no case.
    if (headers === jsonType && payload === validJson) return;
    add(label, { method: 'POST', url, headers: { ...auth, ...idem(), ...headers }, payload });
  };

  if (ep.upload) {
    // The upload speaks multipart only: everything else, and every broken multipart, is refused.
    const good = multipartBody(PNG);
    const goodType = good.headers['content-type'] ?? '';
    const text = good.payload.toString('latin1');
    post('as JSON', jsonType, JSON.stringify({ file: PNG.toString('base64') }));
    post('as text', { 'content-type': 'text/plain' }, 'hello');
    post('as form', { 'content-type': 'application/x-www-form-urlencoded' }, 'file=abc');
    post('as bytes', { 'content-type': 'application/octet-stream' }, PNG);
    post('without a content type', {}, good.payload);
    post('multipart without a boundary', { 'content-type': 'multipart/form-data' }, good.payload);
    post('multipart without a boundary, JSON body', { 'content-type': 'multipart/form-data' }, '{"file":1}');
    post(
      'multipart, wrong boundary',
      { 'content-type': 'multipart/form-data; boundary=other' },
      good.payload,
    );
    post('multipart, empty boundary', { 'content-type': 'multipart/form-data; boundary=' }, good.payload);
    post('multipart, JSON body', { 'content-type': goodType }, '{"file":1}');
    post('multipart, empty body', { 'content-type': goodType }, '');
    post('multipart/mixed', { 'content-type': goodType.replace('form-data', 'mixed') }, good.payload);
    for (const cut of [10, 60, good.payload.length - 30, good.payload.length - 5]) {
      post(`multipart cut at ${cut} bytes`, { 'content-type': goodType }, good.payload.subarray(0, cut));
    }
    post('multipart part without headers', multipartType, `--${BOUNDARY}\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`);
    post(
      'multipart part with a broken header',
      multipartType,
      `--${BOUNDARY}\r\nContent-Disposition form-data name=file\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`,
    );
    post('multipart field __proto__', multipartType, form([{ name: '__proto__', body: '1' }]));
    post('multipart field only', multipartType, multipartFields({ file: 'not a file' }));
    post(
      'multipart JSON field that is not JSON',
      multipartType,
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{bad\r\n--${BOUNDARY}--\r\n`,
    );
    post(
      'multipart with 10 fields before the file',
      multipartType,
      multipartFields(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, i]))),
    );
    const filePart = { name: 'file', filename: 'a.png', type: 'image/png', body: PNG };
    post('multipart with two files', multipartType, form([filePart, filePart]));
    post(
      'multipart with the file and a field',
      multipartType,
      form([filePart, { name: 'extra', body: '1' }]),
    );
    post(
      'multipart with a field and the file',
      multipartType,
      form([{ name: 'extra', body: '1' }, filePart]),
    );
    const big = multipartBody(Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)]));
    post('multipart image of 3 MB', big.headers, big.payload);
    post(
      'multipart whose text is latin-1 garbage',
      { 'content-type': goodType },
      text.replace(/\r\n/g, '\n'),
    );
    return out;
  }

  // POST with JSON: the right fields in every other content type.
  for (const [label, type, payload] of [
    ['as text', 'text/plain', validJson],
    ['as text, utf-8', 'text/plain; charset=utf-8', validJson],
    ['as HTML', 'text/html', `<p>${validJson}</p>`],
    ['as XML', 'application/xml', '<request/>'],
    ['as bytes', 'application/octet-stream', validJson],
    ['as form', 'application/x-www-form-urlencoded', formEncoded(valid)],
    ['as multipart without a boundary', 'multipart/form-data', validJson],
    ['as multipart', `multipart/form-data; boundary=${BOUNDARY}`, multipartFields(valid)],
    ['as multipart, JSON body', `multipart/form-data; boundary=${BOUNDARY}`, validJson],
    ['as json-patch', 'application/json-patch+json', validJson],
    ['as application/jsonx', 'application/jsonx', validJson],
  ] as const) {
    post(label, { 'content-type': type }, payload);
  }
  post('without a content type', {}, validJson);

  // POST with JSON: bodies that are not the request.
  const cuts = [...new Set([1, Math.floor(validJson.length / 2), validJson.length - 1])].filter(
    (n) => n > 0 && n < validJson.length,
  );
  for (const n of cuts) post(`JSON cut at ${n} of ${validJson.length}`, jsonType, validJson.slice(0, n));
  const members = validJson.slice(1, -1);
  const withMember = (m: string) => `{${m}${members ? `,${members}` : ''}}`;
  for (const [label, payload] of [
    ['empty body', ''],
    ['blank body', '   '],
    ['not JSON', 'hello'],
    ['single quotes', validJson.replace(/"/g, "'")],
    ['two documents', `${validJson}${validJson}`],
    ['JSON and trailing text', `${validJson} trailing`],
    ['NaN', 'NaN'],
    ['a raw NUL', `${validJson}\u0000`],
    ['a raw control character in a string', withMember('"pad":"a\u0001b"')],
    ['UTF-16 bytes', Buffer.from(validJson, 'utf16le')],
    ['bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['__proto__ member', withMember('"__proto__":{"polluted":1}')],
    ['constructor.prototype member', withMember('"constructor":{"prototype":{"polluted":1}}')],
    ['an array nested 100,000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['an object nested 50,000 deep', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`],
    ['padded past the body limit', `${validJson}${' '.repeat(BODY_LIMIT)}`],
    ['2 MB of junk', 'z'.repeat(2_000_000)],
  ] as const) {
    post(label, jsonType, payload);
  }
  return out;
}

const CASES = Object.entries(contract).flatMap(([name, ep]) => casesFor(name, ep as Endpoint));

/** Raw HTTP that Node's parser (or the body stream under Fastify) refuses, sent over a socket. */
const RAW: [string, string][] = [
  ['a header of 20 KB', `GET /api/v2/config HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
  ['a query string of 20 KB', `GET /api/v2/config?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ['a method that is not one', 'FOO BAR\r\n\r\n'],
  ['an HTTP version that is not one', 'GET /api/v2/config HTTP/9.9\r\nHost: x\r\n\r\n'],
  ['a header name with a space', 'GET /api/v2/config HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
  ['a header line without a colon', 'GET /api/v2/config HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n'],
  [
    'a Content-Length that is not a number',
    'POST /api/stock/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
  ],
  [
    'two different Content-Lengths',
    'POST /api/stock/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
  ],
  [
    'Content-Length beside chunked',
    'POST /api/stock/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
  ],
  [
    'a chunk size that is not hex',
    'POST /api/stock/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  ],
  [
    'a Content-Length over the body limit',
    `POST /api/stock/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY_LIMIT * 4}\r\n\r\n{`,
  ],
];

/** Sends raw bytes; resolves with the status and body of the first answer. */
function rawRequest(
  port: number,
  bytes: string,
): Promise<{ statusCode: number; body: string; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      const head = data.slice(0, data.indexOf('\r\n\r\n'));
      const statusCode = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? -1);
      const rest = data.slice(head.length + 4);
      const headers = Object.fromEntries(
        head
          .split('\r\n')
          .slice(1)
          .map((line) => [
            line.slice(0, line.indexOf(':')).toLowerCase(),
            line.slice(line.indexOf(':') + 1).trim(),
          ]),
      );
      resolve({ statusCode, body: length >= 0 ? rest.slice(0, length) : rest, headers });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
      const head = data.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(data.slice(0, head))?.[1] ?? -1);
      if (head >= 0 && length >= 0 && data.length >= head + 4 + length) {
        socket.destroy();
        done();
      }
    });
    socket.on('close', done);
    socket.on('error', reject);
    socket.write(bytes, 'latin1');
  });
}

describe.each(DIALECTS)('malformed transport on $name', ({ name, enabled }) => {
  let s: TestServer;
  let token: string;
  const logged: Array<Record<string, unknown>> = [];
  beforeEach(() => {
    logged.length = 0;
  });
  beforeAll(async () => {
    if (!enabled) return;
    s = await startTestServer(
      name,
      {},
      {
        // Error lines only: a fault must be logged with its request id, and nothing else is.
        logger: {
          level: 'error',
          stream: { write: (line: string) => logged.push(JSON.parse(line)) },
        },
        setup(app) {
          app.get(`${app.deps.config.apiBase}/test/fault`, async () => {
            throw new Error('a bug of the server');
          });
        },
      },
    );
    const u = await s.signUp();
    token = u.token;
    // Money on the account, so a refusal is about the transport, not about an empty balance.
    await credit(s, u.id, 100_000_000);
  });
  afterAll(async () => {
    await s?.close();
  });

  const fill = (value: string | string[]): string | string[] =>
    Array.isArray(value)
      ? value.map((v) => fill(v) as string)
      : value.replace(`${TOKEN}<cut>`, token.slice(0, -1)).replace(TOKEN, token);

  it.runIf(enabled)(
    `refuses ${CASES.length} malformed requests with a translated 4xx, and writes nothing`,
    async () => {
      // Every endpoint has cases, and every case class reaches the ones it applies to.
      const endpoints = Object.values(contract) as Endpoint[];
      for (const ep of endpoints)
        expect(
          CASES.some((c) => c.url.startsWith(ep.path)),
          ep.path,
        ).toBe(true);
      const before = await tableDigest(s.deps.database.db);
      const failures: string[] = [];
      for (const c of CASES) {
        const headers = Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, fill(v)]));
        const res = await s.app.inject({
          // biome-ignore lint/suspicious/noExplicitAny: inject takes any HTTP method name
          method: c.method as any,
          url: `${s.config.apiBase}${c.url}`,
          headers,
          ...(c.payload !== undefined ? { payload: c.payload } : {}),
        });
        const problem = refusalProblem(res);
        if (problem) failures.push(`${c.label} → ${problem}: ${res.body.slice(0, 100)}`);
      }
      expect(failures).toEqual([]);
      expect(await tableDigest(s.deps.database.db)).toEqual(before);
      // The session the cases carried is still good (no case logged it out).
      expect((await s.call('balance', { token })).body.msg).toBe('ok');
      expect(logged).toEqual([]);
    },
    300_000,
  );

  it.runIf(enabled)(`answers ${RAW.length} requests the HTTP parser refuses in the envelope`, async () => {
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (s.app.server.address() as net.AddressInfo).port;
    const before = await tableDigest(s.deps.database.db);
    const failures: string[] = [];
    for (const [label, bytes] of RAW) {
      const res = await rawRequest(port, bytes);
      const problem = refusalProblem(res);
      if (problem) failures.push(`${label} → ${problem}: ${res.body.slice(0, 100)}`);
    }
    expect(failures).toEqual([]);
    expect(await tableDigest(s.deps.database.db)).toEqual(before);
    expect(logged).toEqual([]);
  });

  it.runIf(enabled)("logs the server's own fault with the request id, and answers it 500", async () => {
    const res = await s.app.inject({ method: 'GET', url: `${s.config.apiBase}/test/fault` });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ msg: 'no', data: ERR.server });
    expect(logged).toHaveLength(1);
    // The line names the id the caller was answered with.
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(logged[0]).toMatchObject({
      level: 50,
      msg: 'unhandled error',
      reqId: res.headers['x-request-id'],
      err: { message: 'a bug of the server' },
    });
  });
});
