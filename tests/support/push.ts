import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A push service of the tests' own (never a real one): an HTTP server on 127.0.0.1 that takes push
 * requests as a push service does (RFC 8030), checks their VAPID JWT (RFC 8292) and decrypts their
 * payload (RFC 8291, aes128gcm) with the device's private key — written here from the RFCs with
 * node:crypto, independent of the library the server sends with. Each device is a path of its own;
 * a device can be told what to answer (201, or 404/410/503 a number of times).
 */

/** A browser's push subscription: its ECDH key pair and auth secret, and where its pushes go. */
export interface TestDevice {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

/** A new device key pair and secret (what PushManager.subscribe makes), for `endpoint`. */
export function newDevice(endpoint: string): TestDevice {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    endpoint,
    keys: { p256dh: ecdh.getPublicKey('base64url'), auth: auth.toString('base64url') },
    ecdh,
    auth,
  };
}

/** Decrypts an aes128gcm push body (RFC 8291 §3.4, RFC 8188) for the device; throws if it cannot. */
export function decryptPush(device: TestDevice, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const senderKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65 || rs < 18 || record.length > rs) throw new Error('not one aes128gcm record');
  const shared = device.ecdh.computeSecret(senderKey);
  const uaPublic = device.ecdh.getPublicKey();
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then padding zeros.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('no last-record delimiter');
  return plain.subarray(0, end).toString('utf8');
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
  /** The application server's public key (`k=`), base64url. */
  key: string;
}

/** Checks `Authorization: vapid t=<JWT>, k=<key>`: an ES256 JWT signed by `k`; answers its claims. */
export function verifyVapid(header: string | undefined): VapidClaims {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a VAPID header: ${header}`);
  const [h, p, s] = m[1]!.split('.') as [string, string, string];
  const point = Buffer.from(m[2]!, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const jose = JSON.parse(Buffer.from(h, 'base64url').toString());
  if (jose.alg !== 'ES256') throw new Error(`JWT alg ${jose.alg}`);
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  return { aud: claims.aud, exp: claims.exp, sub: claims.sub, key: m[2]! };
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Wall-clock time it arrived. */
  at: number;
  status: number;
}

export interface PushService {
  url: string;
  received: Received[];
  /** The next answers for a device's path (then 201): e.g. [503, 503] or [410]. */
  answer(path: string, statuses: number[]): void;
  /** Waits until `n` requests arrived (bounded). */
  waitFor(n: number, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const received: Received[] = [];
  const scripted = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const status = scripted.get(path)?.shift() ?? 201;
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks), at: Date.now(), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer(path, statuses) {
      scripted.set(path, [...statuses]);
    },
    async waitFor(n, ms = 10_000) {
      const until = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`push service: ${received.length} of ${n} requests arrived`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
