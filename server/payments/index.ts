import type { Config } from '../config';
import type { PaymentProvider } from './provider';
import { sandboxProvider } from './sandbox';

/** The configured payment rail; the sandbox is the only one this server ships (DESIGN "Recharge"). */
export function createPayments(_config: Config): PaymentProvider {
  return sandboxProvider();
}
