import { call } from '../../api/client';
import { useWatch } from '../../api/hooks';
import type { SecurityState } from '../../shared/contract/security';
import type { Method, Proof } from '../_parts/security/ProofForm';

/**
 * Settings → Security: what the account has set up (`securityState`, read once and
 * again after each change) and the changes, each a contract call through the sync worker.
 * Removing a factor or renewing the recovery codes takes a proof of a second factor.
 */
export function useSecurity() {
  const state = useWatch('securityState', {}, 0);
  const data: SecurityState | undefined = state.data;

  /** The proofs the account can give now (a flagged passkey is not one). */
  const methods: Method[] = [];
  if (data?.passkeys.some((p) => !p.flagged)) methods.push('passkey');
  if (data?.totp) methods.push('totp');
  if ((data?.recovery_left ?? 0) > 0) methods.push('recovery');

  const hasFactor = Boolean(data && (data.totp || data.passkeys.length > 0));

  return {
    state,
    data,
    methods,
    hasFactor,
    reload: state.reload,
    rename: (id: number, name: string) => call('passkeyRename', { id, name }),
    removePasskey: (id: number, proof: Proof) => call('passkeyRemove', { id, ...(proof as object) } as never),
    removeTotp: (proof: Proof) => call('totpRemove', proof as never),
    renewCodes: (proof: Proof) => call('recoveryRenew', proof as never),
  };
}
