import { useCallback, useEffect, useRef, useState } from 'react';
import type { MoneyView } from '../../workers/money';
import { type CallResult, stableJson } from '../shared/call';
import type { EndpointName } from '../shared/contract/index';
import { useUi } from '../store/ui';
import { forgetMoney, type Input, listen, newIdempotencyKey, type Output, sendMoney } from './client';

/** The refusal of a money call by an account whose real-name verification is not approved (server/account/kyc-gate.ts). */
export const KYC_REQUIRED = 'errors.kycRequired';

/**
 * Every money call of the app (orders, recharge, withdrawal, loans, IPO, funds, block/QIP buys,
 * sells, cancels) goes through `useMoneyCall` — the one mechanism:
 *
 *   Draft → Sending → Confirmed | Rejected
 *                  ↘ Unconfirmed (the answer was lost) → Checking → Confirmed | Rejected | Missing
 *
 * The worker writes the Idempotency-Key to the device store before the request leaves
 * (workers/money.ts). A lost answer never reads "failed": the call's promise stays open while the
 * worker asks the server what became of the key on the next good connection, and settles with the
 * server's answer. Only a call the server never received (`missing`) offers "Submit again" — the
 * same key and body, so even a late arrival cannot fill twice. Nothing is re-sent on its own.
 */
export type MoneyPhase = 'idle' | 'sending' | 'unconfirmed' | 'checking' | 'missing';

/** The i18n key a call resolves with when the user lets a never-received call go. */
export const MONEY_NOT_SENT = 'core.money.missing';
const UNCONFIRMED = 'core.money.unconfirmed';

/** Keys a mounted screen is waiting on; others' outcomes are announced by the shell (useMoneyNotices). */
const claimed = new Set<string>();
export const isClaimed = (key: string) => claimed.has(key);

export interface MoneyCall<K extends EndpointName> {
  (input: Input<K>): Promise<CallResult<Output<K>>>;
  phase: MoneyPhase;
  /** Missing: send the very same request again (same Idempotency-Key). */
  resend: () => void;
  /** Missing: let it go; the call resolves as not sent. */
  dismiss: () => void;
}

export function useMoneyCall<K extends EndpointName>(name: K): MoneyCall<K> {
  const [phase, setPhase] = useState<MoneyPhase>('idle');
  /** The action in progress: its key, request, and the promise the screen awaits. */
  const open = useRef<{
    key: string;
    input: Input<K>;
    identity: string;
    resolve: (r: CallResult<Output<K>>) => void;
  } | null>(null);

  const settle = useCallback((result: CallResult<Output<K>>) => {
    const current = open.current;
    if (!current) return;
    // Identity before money (REQUIRE_KYC): whichever screen asked, the shell says why and where to go.
    if (!result.ok && result.error === KYC_REQUIRED) useUi.getState().setIdentityNeeded(true);
    claimed.delete(current.key);
    open.current = null;
    setPhase('idle');
    current.resolve(result);
  }, []);

  const attempt = useCallback(
    async (key: string, input: Input<K>) => {
      setPhase('sending');
      const result = (await sendMoney(name, input, key)) as CallResult<Output<K>>;
      if (open.current?.key !== key) return;
      if (!result.ok && result.error === UNCONFIRMED) setPhase('unconfirmed');
      else settle(result);
    },
    [name, settle],
  );

  // The worker's word on an unconfirmed call: checking, then settled or missing.
  useEffect(
    () =>
      listen('money', (view: MoneyView) => {
        const current = open.current;
        if (!current || view.key !== current.key) return;
        if (view.result) settle(view.result as CallResult<Output<K>>);
        else if (view.state === 'checking' || view.state === 'missing' || view.state === 'unconfirmed')
          setPhase(view.state);
      }),
    [settle],
  );
  useEffect(
    () => () => {
      if (open.current) claimed.delete(open.current.key);
    },
    [],
  );

  const send = useCallback(
    (input: Input<K>): Promise<CallResult<Output<K>>> => {
      const identity = stableJson(input);
      const prior = open.current;
      // Still waiting on this very request: wait with it rather than send a second one.
      if (prior && prior.identity === identity)
        return new Promise((resolve) => {
          const before = prior.resolve;
          prior.resolve = (r) => {
            before(r);
            resolve(r);
          };
        });
      const key = newIdempotencyKey();
      return new Promise((resolve) => {
        open.current = { key, input, identity, resolve };
        claimed.add(key);
        void attempt(key, input);
      });
    },
    [attempt],
  );

  const resend = useCallback(() => {
    const current = open.current;
    if (current && phase === 'missing') void attempt(current.key, current.input);
  }, [attempt, phase]);
  const dismiss = useCallback(() => {
    const current = open.current;
    if (!current) return;
    void forgetMoney(current.key);
    settle({ ok: false, error: MONEY_NOT_SENT, status: 0 });
  }, [settle]);

  return Object.assign(send, { phase, resend, dismiss });
}
