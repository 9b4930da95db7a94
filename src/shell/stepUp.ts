import { create } from 'zustand';
import { type CallResult, ERR } from '../shared/call';

/**
 * Step-up: the server refuses a change that needs a fresh proof of the account's second
 * factor — a factor added, a bank card, a withdrawal, a new login password, the first transaction
 * password — with `errors.stepUpRequired`. `withStepUp` then asks for one (the shell's sheet,
 * screens/_parts/security/StepUpSheet.tsx) and, once the server took it, sends the same call
 * again; cancelled, the refusal stands and the screen shows it.
 */
interface StepUpState {
  /** Open while a proof is asked for: settles the ask (true: proved). */
  settle: ((proved: boolean) => void) | null;
}

export const useStepUp = create<StepUpState>(() => ({ settle: null }));

/** Opens the sheet; answers whether the user proved their factor. */
export function askStepUp(): Promise<boolean> {
  // Only one ask at a time: an earlier one still open is given up.
  useStepUp.getState().settle?.(false);
  return new Promise((resolve) => {
    useStepUp.setState({
      settle: (proved) => {
        useStepUp.setState({ settle: null });
        resolve(proved);
      },
    });
  });
}

/** Sends `send`; refused for want of a step-up, asks for one and sends it once more. */
export async function withStepUp<T>(send: () => Promise<CallResult<T>>): Promise<CallResult<T>> {
  const first = await send();
  if (first.ok || first.error !== ERR.stepUpRequired) return first;
  return (await askStepUp()) ? send() : first;
}
