import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/*
 * What a factor keeps that must stay secret even from someone holding a copy of the database:
 * the authenticator-app secret (needed again to check each code, so sealed, not hashed: AES-256-GCM
 * under FACTOR_KEY, a fresh 12-byte nonce each time) and recovery codes (only ever compared, so
 * an HMAC-SHA-256 under the same key: 50 random bits cannot be tried offline without the key).
 */
const VERSION = 'v1';

export function seal(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

/** The sealed text, or throws when it was sealed under another key or altered. */
export function unseal(sealed: string, key: Buffer): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) throw new Error('not a sealed factor secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

export function keyedHash(text: string, key: Buffer): string {
  return createHmac('sha256', key).update(text).digest('base64url');
}
