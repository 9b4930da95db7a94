import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresetHeaders } from '../../server/lib/preset-headers';
import { securityHeaders } from '../../server/lib/security-headers';

/**
 * Headers validated once and written to Node's header store (setHeader re-validated the
 * 11 security headers on every answer). On the wire an answer must be byte for byte what
 * setHeader makes, and what one response does to its headers must not reach the next.
 */
const LIST = [
  ...securityHeaders({ hsts: true }),
  ['content-type', 'application/json; charset=utf-8'],
] as Array<[string, string]>;
const preset = new PresetHeaders(LIST);

/** The raw bytes of one answer to GET `path` (Date removed), over a plain socket. */
function rawAnswer(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    });
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
    });
    socket.on('end', () => resolve(text.replace(/\r\nDate: [^\r]*/, '')));
    socket.on('error', reject);
  });
}

describe('preset headers', () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/preset') preset.apply(res);
      else for (const [name, value] of LIST) res.setHeader(name, value);
      if (req.url === '/override') res.setHeader('x-xss-protection', '1');
      res.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('writes Node’s own header store on this Node', () => {
    expect(PresetHeaders.direct).toBe(true);
  });

  it('answers byte for byte as setHeader does', async () => {
    const slow = await rawAnswer(port, '/setheader');
    expect(slow).toContain('x-xss-protection: 0\r\n');
    expect(await rawAnswer(port, '/preset')).toBe(slow);
  });

  it('keeps what one response changes to itself', () => {
    const a = new http.OutgoingMessage();
    a.setHeader('x-before', 'kept');
    preset.apply(a);
    a.setHeader('referrer-policy', 'same-origin');
    a.removeHeader('x-dns-prefetch-control');
    const b = new http.OutgoingMessage();
    preset.apply(b);
    expect(a.getHeader('x-before')).toBe('kept');
    expect(a.getHeader('referrer-policy')).toBe('same-origin');
    expect(a.hasHeader('x-dns-prefetch-control')).toBe(false);
    expect(b.getHeaders()).toEqual(Object.fromEntries(LIST));
  });

  it('replaces a header set before it, as setHeader would', () => {
    const res = new http.OutgoingMessage();
    res.setHeader('X-XSS-Protection', '1');
    preset.apply(res);
    expect(res.getHeader('x-xss-protection')).toBe('0');
  });

  it('sets the per-answer headers in the same write, as setHeader would', () => {
    const stamped = new PresetHeaders(LIST, ['X-Request-Id', 'x-server-time']);
    const a = new http.OutgoingMessage();
    stamped.applyWith(a, 'abc-1', '1796639397046');
    const b = new http.OutgoingMessage();
    for (const [name, value] of LIST) b.setHeader(name, value);
    b.setHeader('x-request-id', 'abc-1');
    b.setHeader('x-server-time', '1796639397046');
    expect(a.getHeaders()).toEqual(b.getHeaders());
    expect(a.getHeaderNames()).toEqual(b.getHeaderNames());
  });

  it('refuses a per-answer value that would add a header (header injection)', () => {
    const stamped = new PresetHeaders(LIST, ['x-request-id', 'x-server-time']);
    const res = new http.OutgoingMessage();
    expect(() => stamped.applyWith(res, 'id\r\nset-cookie: a=b', '1')).toThrow();
    expect(res.hasHeader('set-cookie')).toBe(false);
  });

  it('refuses at construction what setHeader would refuse', () => {
    expect(() => new PresetHeaders([['bad name', 'x']])).toThrow();
    expect(() => new PresetHeaders([['x-ok', 'line\r\nbreak']])).toThrow();
  });
});
