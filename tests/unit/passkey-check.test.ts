import { describe, expect, it } from 'vitest';
import { checkAssertion } from '../../workers/passkey-check';
import { SoftAuthenticator } from '../support/authenticator';

/**
 * The app lock's offline check (workers/passkey-check.ts): an assertion made by a
 * software authenticator passes against the passkey's public key as the server kept it, and each
 * thing an attacker could change makes it fail.
 */
async function setup() {
  const auth = new SoftAuthenticator('http://localhost:4403', 'localhost');
  // The COSE public key exactly as registration carries it (and the server keeps it).
  const reg = auth.register({ challenge: 'reg' });
  const { isoCBOR } = await import('@simplewebauthn/server/helpers');
  const attestation = isoCBOR.decodeFirst<Map<string, Uint8Array>>(
    Buffer.from(reg.response.attestationObject, 'base64url'),
  );
  const authData = Buffer.from(attestation.get('authData')!);
  const idLength = authData.readUInt16BE(53);
  const publicKey = authData.subarray(55 + idLength).toString('base64url');
  const challenge = Buffer.from('a device-made challenge of 32 b!').toString('base64url');
  const base = { challenge, origin: 'http://localhost:4403', rpId: 'localhost', publicKey };
  return { auth, base };
}

describe('offline passkey check', () => {
  it('accepts an assertion for its challenge, origin and RP id with the user verified', async () => {
    const { auth, base } = await setup();
    expect(await checkAssertion({ ...base, response: auth.assert({ challenge: base.challenge }) })).toBe(
      true,
    );
  });

  it('refuses another challenge, origin or RP id, no user verification, a bent signature, another key', async () => {
    const { auth, base } = await setup();
    const good = auth.assert({ challenge: base.challenge });
    expect(await checkAssertion({ ...base, challenge: 'another', response: good })).toBe(false);
    for (const bend of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { noUv: true }]) {
      expect(
        await checkAssertion({ ...base, response: auth.assert({ challenge: base.challenge }, bend) }),
      ).toBe(false);
    }
    const signature = Buffer.from(good.response.signature, 'base64url');
    signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 1, signature.length - 1);
    const bent = { ...good, response: { ...good.response, signature: signature.toString('base64url') } };
    expect(await checkAssertion({ ...base, response: bent })).toBe(false);
    const other = await setup();
    expect(await checkAssertion({ ...base, publicKey: other.base.publicKey, response: good })).toBe(false);
    expect(await checkAssertion({ ...base, publicKey: 'not-cbor', response: good })).toBe(false);
  });
});
