import { totpCode } from '../../server/factors/index';
import { SoftAuthenticator } from './authenticator';
import type { TestServer } from './server';

/**
 * Second factors through the real API (issue 32): a passkey made by a software authenticator, an
 * authenticator app whose codes are computed from the secret the server gave.
 */

/** Enrols a passkey for the session `token`; answers its id (and the authenticator, to sign with). */
export async function enrolPasskey(s: TestServer, token: string, auth = new SoftAuthenticator()) {
  const options = await s.call('passkeyOptions', { token });
  const added = await s.call('passkeyAdd', {
    token,
    body: { response: auth.register(options.body.data), name: 'Test phone' },
  });
  if (added.body.msg !== 'ok') throw new Error(`passkey enrolment failed: ${JSON.stringify(added.body)}`);
  return added.body.data.passkey.id as number;
}

/** Enrols an authenticator app; answers its secret, recovery codes and the answer's session. */
export async function enrolTotp(s: TestServer, token: string) {
  const setup = await s.call('totpSetup', { token });
  if (setup.body.msg !== 'ok') throw new Error(`totp setup failed: ${JSON.stringify(setup.body)}`);
  const secret = setup.body.data.secret as string;
  const confirmed = await s.call('totpConfirm', { token, body: { code: totpCode(secret, s.clock.now()) } });
  if (confirmed.body.msg !== 'ok') throw new Error(`totp confirm failed: ${JSON.stringify(confirmed.body)}`);
  return {
    secret,
    codes: confirmed.body.data.recovery_codes as string[] | null,
    session: confirmed.body.data.session as { token: string } | null,
  };
}

/** A passkey's signature for the session `token` (a challenge asked for it first). */
export async function passkeyProof(s: TestServer, token: string, auth: SoftAuthenticator) {
  const options = await s.call('factorChallenge', { token });
  if (options.body.msg !== 'ok') throw new Error(`challenge failed: ${JSON.stringify(options.body)}`);
  return auth.assert(options.body.data);
}
