import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { type CallResult, isTransportFailure } from '#shared/contract/index';
import type { SecurityState, WebAuthnOptions } from '#shared/contract/security';
import type { Context } from './context';

/**
 * The app lock's passkey. Online the server issues the challenge and checks the
 * assertion (`factorChallenge`, `unlock`); offline — or when the server cannot be reached after it
 * issued one — the assertion is checked here, on the device, against the passkey's public key
 * from the last `securityState` answer kept for this user (workers/answers.ts; the check:
 * workers/passkey-check.ts, loaded only then). The challenge is made here then: 32 random bytes,
 * used once.
 */

/** How long the device's own challenge is good for (the browser's prompt has the same timeout). */
const LOCAL_TIMEOUT_MS = 5 * 60_000;

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export function lockApi(ctx: Context) {
  /** The challenge of the ceremony under way: whose it is (the server's or this device's), and when it ends. */
  let pending: { challenge: string; local: boolean; until: number } | null = null;

  const kept = async (): Promise<SecurityState | null> => {
    const rec = await ctx.answers.read('securityState', {});
    return (rec?.data as SecurityState | undefined) ?? null;
  };

  /** The assertion checked on the device against the kept public key of the passkey it names. */
  async function verifyHere(challenge: string, response: AuthenticationResponseJSON): Promise<boolean> {
    const state = await kept();
    const key = state?.passkeys.find((p) => p.credential_id === response.id && !p.flagged);
    if (!state || !key) return false;
    const { checkAssertion } = await import('../passkey-check');
    return checkAssertion({
      response,
      challenge,
      origin: self.location.origin,
      rpId: state.rp_id,
      publicKey: key.public_key,
    });
  }

  return {
    /** Does this device hold a passkey's public key to open the lock with, offline too? */
    async lockPasskeys(): Promise<number> {
      const n = (await kept())?.passkeys.filter((p) => !p.flagged).length ?? 0;
      // The check's code is loaded now, while the network may still be there.
      if (n > 0) void import('../passkey-check').catch(() => undefined);
      return n;
    },

    /**
     * Options for the lock's passkey prompt: the server's challenge while it answers, else one made
     * here for the kept passkeys (`core.lock.noPasskey` when there is none on this device).
     */
    async unlockOptions(): Promise<CallResult<WebAuthnOptions>> {
      pending = null;
      if (ctx.online()) {
        const answer = await ctx.request('factorChallenge', {});
        if (answer.ok) {
          pending = { challenge: answer.data.challenge, local: false, until: Date.now() + LOCAL_TIMEOUT_MS };
          return answer;
        }
        if (!isTransportFailure(answer.error)) return answer;
      }
      const state = await kept();
      const usable = state?.passkeys.filter((p) => !p.flagged) ?? [];
      if (!state || usable.length === 0) return { ok: false, error: 'core.lock.noPasskey', status: 0 };
      const challenge = b64url(crypto.getRandomValues(new Uint8Array(32)));
      pending = { challenge, local: true, until: Date.now() + LOCAL_TIMEOUT_MS };
      return {
        ok: true,
        data: {
          challenge,
          rpId: state.rp_id,
          allowCredentials: usable.map((p) => ({
            id: p.credential_id,
            type: 'public-key',
            transports: p.transports,
          })),
          userVerification: 'required',
          timeout: LOCAL_TIMEOUT_MS,
        },
      };
    },

    /**
     * The passkey's answer to `unlockOptions`: checked by the server when it issued the challenge
     * and still answers, otherwise here. Answers where it was checked.
     */
    async unlockWithPasskey(response: AuthenticationResponseJSON): Promise<CallResult<{ device: boolean }>> {
      const p = pending;
      pending = null;
      if (!p || p.until < Date.now()) return { ok: false, error: 'errors.challengeExpired', status: 0 };
      if (!p.local) {
        const answer = await ctx.request('unlock', { passkey: response as never });
        if (answer.ok) return { ok: true, data: { device: false } };
        if (!isTransportFailure(answer.error)) return answer;
      }
      return (await verifyHere(p.challenge, response))
        ? { ok: true, data: { device: true } }
        : { ok: false, error: 'errors.passkeyRefused', status: 0 };
    },
  };
}
