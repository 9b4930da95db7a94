import { call } from '../../../api/client';
import type { CallResult } from '../../../shared/call';
import type { Enrolled, PasskeyRow } from '../../../shared/contract/security';
import { withStepUp } from '../../../shell/stepUp';
import { createPasskey } from './webauthn';

/**
 * Creating a passkey end to end: the server's options, the browser's prompt (the phone's
 * fingerprint, face or PIN), the server's check. `token`: a forced enrolment's step session.
 */
export async function enrolPasskey(
  name: string,
  token?: string,
): Promise<CallResult<Enrolled & { passkey: PasskeyRow }>> {
  // A second factor is added only with a fresh proof of one the account has.
  const options = await withStepUp(() => call('passkeyOptions', {}, { token }));
  if (!options.ok) return options;
  const created = await createPasskey(options.data);
  if (!created.ok) return created;
  return call('passkeyAdd', { response: created.data as never, name }, { token });
}
