import { useCallback, useRef } from 'react';
import { call, type Input, newIdempotencyKey, type Output } from '../../api/client';
import { type CallResult, ERR, isTransportFailure, stableJson } from '../../shared/contract/define';
import type { EndpointName } from '../../shared/contract/index';

/**
 * A money call with its Idempotency-Key (DESIGN rule 6). The key belongs to one user action: it is
 * reused only when the user retries the very same request after a transport failure (the first
 * attempt may have reached the server), and a new one is made for anything else.
 */
export function useMoneyCall<K extends EndpointName>(name: K) {
  const last = useRef<{ key: string; input: string; open: boolean } | null>(null);
  return useCallback(
    async (input: Input<K>): Promise<CallResult<Output<K>>> => {
      const identity = stableJson(input);
      const prior = last.current;
      const key = prior?.open && prior.input === identity ? prior.key : newIdempotencyKey();
      last.current = { key, input: identity, open: true };
      const result = await call(name, input, { idempotencyKey: key });
      // Settled either way unless the answer never came back.
      if (result.ok || !isTransportFailure(result.error))
        last.current = { key, input: identity, open: false };
      return result;
    },
    [name],
  );
}

/**
 * The message for a refused purchase (SPEC §8: keyed by the server's answer). The server's keys and
 * the transport's (offline, timeout, network) are shown as they are; an unexplained failure gets
 * the screen's own "failed" text.
 */
export function purchaseError(error: string, fallback: string): string {
  return error === ERR.server ? fallback : error;
}
