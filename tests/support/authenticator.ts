import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator for server tests and benchmarks: one ES256 credential, "none"
 * attestation, user presence and verification flagged, a signature counter that moves forward by
 * one per assertion. Each response can be bent the way an attacker would (another origin or RP
 * id, no user verification, a counter set back) to prove the server refuses it.
 */
export interface Bend {
  origin?: string;
  rpId?: string;
  /** The counter to sign with (default: one more than the last). */
  counter?: number;
  /** Leave the user-verified flag off. */
  noUv?: boolean;
}

const b64 = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest();

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly key: { privateKey: KeyObject; publicKey: KeyObject };
  counter = 0;

  constructor(
    readonly origin = 'http://localhost:8080',
    readonly rpId = 'localhost',
  ) {
    this.key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const head = Buffer.alloc(37);
    sha(rpId).copy(head, 0);
    head[32] = flags;
    head.writeUInt32BE(counter, 33);
    return attested ? Buffer.concat([head, attested]) : head;
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** A `create()` answer to registration options (`{ challenge }`). */
  register(options: { challenge: string }, bend: Bend = {}) {
    const jwk = this.key.publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(cose)]);
    const flags = 0x01 | (bend.noUv ? 0 : 0x04) | 0x40;
    const authData = this.authData(bend.rpId ?? this.rpId, flags, this.counter, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(
          this.clientData('webauthn.create', options.challenge, bend.origin ?? this.origin),
        ),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }

  /** A `get()` answer to authentication options (`{ challenge }`). */
  assert(options: { challenge: string }, bend: Bend = {}) {
    const counter = bend.counter ?? this.counter + 1;
    this.counter = Math.max(this.counter, counter);
    const authData = this.authData(bend.rpId ?? this.rpId, 0x01 | (bend.noUv ? 0 : 0x04), counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, bend.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha(clientDataJSON)]), this.key.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
      },
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
    };
  }
}
