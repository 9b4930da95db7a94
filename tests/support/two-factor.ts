import { totpCode } from '../../server/factors/index';
import { unseal } from '../../server/factors/secrets';
import { SoftAuthenticator } from './authenticator';
import type { TestServer } from './server';

/**
 * Second factors through the real API: a passkey made by a software authenticator, an
 * authenticator app whose codes are computed from the secret the server gave.
 */

/** One proof of a second factor, as the contract's bodies take it. */
export type ProofBody = { passkey: unknown } | { code: string } | { recovery: string };

/**
 * Steps the session `token` up with `proof`: the next change that needs a fresh proof
 * of an existing factor (a factor added, a card, a withdrawal, a new password) goes through.
 */
export async function stepUp(s: TestServer, token: string, proof: ProofBody) {
  const res = await s.call('stepUp', { token, body: proof });
  if (res.body.msg !== 'ok') throw new Error(`step-up failed: ${JSON.stringify(res.body)}`);
  return res.body.data.fresh_until as number;
}

/**
 * Enrols a passkey for the session `token`; answers its id (and the authenticator, to sign with).
 * `proof`: where the account has a factor already, the step-up that must come first.
 */
export async function enrolPasskey(
  s: TestServer,
  token: string,
  auth = new SoftAuthenticator(),
  proof?: ProofBody,
) {
  if (proof) await stepUp(s, token, proof);
  const options = await s.call('passkeyOptions', { token });
  const added = await s.call('passkeyAdd', {
    token,
    body: { response: auth.register(options.body.data), name: 'Test phone' },
  });
  if (added.body.msg !== 'ok') throw new Error(`passkey enrolment failed: ${JSON.stringify(added.body)}`);
  return added.body.data.passkey.id as number;
}

/**
 * Enrols an authenticator app; answers its secret, recovery codes and the answer's session.
 * `proof`: where the account has a factor already, the step-up that must come first.
 */
export async function enrolTotp(s: TestServer, token: string, proof?: ProofBody) {
  if (proof) await stepUp(s, token, proof);
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

/** The next code of an app (the step after `at`: the one a test just used is refused as used). */
export const nextCode = (s: TestServer, secret: string) => {
  s.clock.advance(30_000);
  return totpCode(secret, s.clock.now());
};

/** A user's authenticator-app secret as the server holds it (only tests read it back). */
export async function totpSecretOf(s: TestServer, userId: number): Promise<string | null> {
  const row = await s.deps.database.db
    .selectFrom('factor_totp')
    .select('secret')
    .where('owner', '=', `user:${userId}`)
    .executeTakeFirst();
  return row ? unseal(row.secret, s.config.twoFactor.key) : null;
}
