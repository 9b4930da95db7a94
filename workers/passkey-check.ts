/**
 * A passkey's assertion checked on the device (the app lock opens offline): the checks
 * the server's WebAuthn library makes for a sign-in, for an ES256 passkey (what platform
 * authenticators make) — the client data is a `webauthn.get` for this challenge and this origin,
 * the authenticator data is for this RP id with the user present and verified, and the signature
 * over both verifies against the passkey's public key. The crypto is libraries' and the
 * platform's: SHA-256 from WebCrypto, ECDSA P-256 from @noble/curves (audited; it reads the DER
 * signature an authenticator gives), the COSE key read with @levischuck/tiny-cbor. Loaded only
 * when the lock is opened offline (workers/api/lock.ts).
 */
import { decodeCBOR } from '@levischuck/tiny-cbor';
import { p256 } from '@noble/curves/nist.js';

export interface AssertionJson {
  id: string;
  response: { clientDataJSON: string; authenticatorData: string; signature: string };
}

const fromB64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** COSE key parameters (RFC 9053): key type EC2, algorithm ES256, curve P-256, coordinates. */
const KTY = 1;
const ALG = 3;
const CRV = -1;
const X = -2;
const Y = -3;
/** Authenticator data flags: user present, user verified. */
const UP = 0x01;
const UV = 0x04;

/** The uncompressed P-256 point of a COSE ES256 key, or null for any other key. */
function es256Point(cose: Uint8Array): Uint8Array | null {
  const key = decodeCBOR(cose);
  if (!(key instanceof Map) || key.get(KTY) !== 2 || key.get(ALG) !== -7 || key.get(CRV) !== 1) return null;
  const x = key.get(X);
  const y = key.get(Y);
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32)
    return null;
  return Uint8Array.from([0x04, ...x, ...y]);
}

export async function checkAssertion(opts: {
  response: AssertionJson;
  challenge: string;
  origin: string;
  rpId: string;
  /** The passkey's COSE public key, base64url. */
  publicKey: string;
}): Promise<boolean> {
  try {
    const point = es256Point(fromB64url(opts.publicKey));
    if (!point) return false;
    const clientBytes = fromB64url(opts.response.response.clientDataJSON);
    const client = JSON.parse(new TextDecoder().decode(clientBytes)) as Record<string, unknown>;
    if (
      client.type !== 'webauthn.get' ||
      client.challenge !== opts.challenge ||
      client.origin !== opts.origin
    )
      return false;
    const authData = fromB64url(opts.response.response.authenticatorData);
    if (authData.length < 37) return false;
    const rpHash = await sha256(new TextEncoder().encode(opts.rpId));
    const flags = authData[32] ?? 0;
    if (!equal(authData.subarray(0, 32), rpHash) || !(flags & UP) || !(flags & UV)) return false;
    const signed = new Uint8Array([...authData, ...(await sha256(clientBytes))]);
    // ECDSA over SHA-256 of the signed bytes (prehash); authenticators may give high-S signatures.
    return p256.verify(fromB64url(opts.response.response.signature), signed, point, {
      format: 'der',
      lowS: false,
    });
  } catch {
    return false;
  }
}
