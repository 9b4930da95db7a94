import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  hkdfSync,
  type KeyObject,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { privateDir, privateFile } from './private-files';

/**
 * What makes the audit log prove itself to someone who can write the database (DESIGN rule 9): a
 * key the database never holds (AUDIT_KEY, like FACTOR_KEY), from which two keys are derived —
 * - a MAC key: every entry carries HMAC-SHA256(key, its hash). The hash covers the entry and the
 *   one before it, so without the key nobody can add an entry, or alter one and rehash the chain
 *   after it, that verifies;
 * - an Ed25519 signing key: after each entry commits its head (number, hash, time) is signed and
 *   appended to the heads file, outside the database (AUDIT_HEADS_FILE, 0600). A cut tail — the
 *   newest entries deleted with the triggers dropped — leaves a chain that verifies by itself, but
 *   not the signed head of an entry that is gone. The public key lets an auditor check the heads
 *   without being able to make one.
 */

/** One signed head as a line of the heads file. */
export interface SignedHead {
  seq: number;
  hash: string;
  at: number;
  sig: string;
}

export interface AuditSeal {
  /** The entry's MAC (hex) of its hash. */
  mac(hash: string): string;
  /** Whether `mac` is the MAC of `hash` (constant time). */
  macOk(hash: string, mac: string | null): boolean;
  /** Signs a committed head and appends it to the heads file; a failure is kept, never thrown. */
  recordHead(seq: number, hash: string, at: number): void;
  /** Every head in the file whose signature verifies, and how many lines did not. */
  readHeads(): { heads: SignedHead[]; badLines: number };
  /** The last head this process recorded (for the metrics). */
  lastHead(): SignedHead | null;
  /** Why the heads file could not be written, the last time it could not (null: it could). */
  writeError(): string | null;
  /** The Ed25519 public key (raw, base64): an auditor verifies heads with it alone. */
  publicKey: string;
  file: string;
}

const HEAD_DOMAIN = 'bourse-audit-head';
/** PKCS#8 DER prefix of an Ed25519 private key: the 32-byte seed follows. */
const ED25519_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');

const derive = (key: Buffer, info: string) => Buffer.from(hkdfSync('sha256', key, '', info, 32));
const signedText = (h: Omit<SignedHead, 'sig'>) => `${HEAD_DOMAIN}\n${h.seq}\n${h.hash}\n${h.at}`;

function signingKeys(key: Buffer): { privateKey: KeyObject; publicKey: KeyObject } {
  const seed = derive(key, 'bourse audit head signing');
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

/** Whether `head` was signed by the holder of the key behind `publicKey`. */
export function headSignatureOk(publicKey: KeyObject, head: SignedHead): boolean {
  try {
    return verify(null, Buffer.from(signedText(head)), publicKey, Buffer.from(head.sig, 'base64'));
  } catch {
    return false;
  }
}

function parseHead(line: string): SignedHead | null {
  try {
    const h = JSON.parse(line) as Partial<SignedHead>;
    if (
      Number.isSafeInteger(h.seq) &&
      typeof h.hash === 'string' &&
      /^[0-9a-f]{64}$/.test(h.hash) &&
      Number.isSafeInteger(h.at) &&
      typeof h.sig === 'string'
    )
      return h as SignedHead;
  } catch {
    // Not a head: counted by the caller.
  }
  return null;
}

export function createAuditSeal(key: Buffer, file: string): AuditSeal {
  const macKey = derive(key, 'bourse audit entry mac');
  const { privateKey, publicKey } = signingKeys(key);
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  let last: SignedHead | null = null;
  let error: string | null = null;
  let ready = false;
  const mac = (hash: string) => createHmac('sha256', macKey).update(hash).digest('hex');
  return {
    file,
    publicKey: raw.toString('base64'),
    mac,
    macOk(hash, given) {
      if (given === null || !/^[0-9a-f]{64}$/.test(given)) return false;
      return timingSafeEqual(Buffer.from(mac(hash), 'hex'), Buffer.from(given, 'hex'));
    },
    recordHead(seq, hash, at) {
      const head = { seq, hash, at };
      const sig = sign(null, Buffer.from(signedText(head)), privateKey).toString('base64');
      const signed = { ...head, sig };
      try {
        if (!ready) {
          privateDir(path.dirname(file));
          privateFile(file);
          ready = true;
        }
        // One short line in append mode: concurrent writers (the console beside the server) never
        // interleave inside a line.
        fs.appendFileSync(file, `${JSON.stringify(signed)}\n`);
        last = signed;
        error = null;
      } catch (err) {
        // The entry is committed: refusing the action now would lie about it. verify and the
        // metrics say the heads file is behind.
        error = err instanceof Error ? err.message : String(err);
      }
    },
    readHeads() {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { heads: [], badLines: 0 };
        throw err;
      }
      const heads: SignedHead[] = [];
      let badLines = 0;
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        const h = parseHead(line);
        if (h && headSignatureOk(publicKey, h)) heads.push(h);
        else badLines += 1;
      }
      return { heads, badLines };
    },
    lastHead: () => last,
    writeError: () => error,
  };
}
