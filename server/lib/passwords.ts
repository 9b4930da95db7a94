import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt with OWASP's parameters (N = 2^17, r = 8, p = 1) unless the config lowers them for tests.
 * The parameters are stored with each hash, so raising them later keeps old hashes verifiable.
 * Format: scrypt$N$r$p$salt$hash (base64url).
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, { N, r, p }: ScryptParams): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is below what N = 2^17, r = 8 needs (128 MiB).
  const maxmem = 128 * N * r * 2;
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, { N, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSecret(secret: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !N || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(secret, Buffer.from(salt, 'base64url'), { N: +N, r: +r, p: +p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
