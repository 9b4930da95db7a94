import { BANK_CARD_STATUS } from '#shared/status';
import type { DueWithdrawal, Outcome, PaymentProvider } from './provider';

/**
 * The demo's rail (DESIGN "Recharge"): no money exists outside this server, so every recharge is
 * confirmed and every withdrawal paid once its settlement delay has passed — except to cards whose
 * number ends in DECLINE_SUFFIX, which the sandbox declines like a payment gateway's test cards do,
 * so the refund path can be seen working. A card that is no longer usable is declined too.
 */
const DECLINE_SUFFIX = '0002';

export function sandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    async recharge(): Promise<Outcome> {
      return 'settled';
    },
    async withdrawal(w: DueWithdrawal): Promise<Outcome> {
      if (w.card.status !== BANK_CARD_STATUS.usable || w.card.bankCard.endsWith(DECLINE_SUFFIX))
        return 'failed';
      return 'settled';
    },
  };
}
