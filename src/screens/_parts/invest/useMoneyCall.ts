import { KYC_REQUIRED, MONEY_NOT_SENT } from '../../../api/money';
import { isTransportFailure } from '../../../shared/call';
import { toast } from '../../../store/ui';

/**
 * How a failed money action reads (SPEC §8), written once for every money screen (money calls
 * themselves go through src/api/money.ts useMoneyCall). A refusal the server explained shows its
 * key (insufficient funds, minimum amount…). When no business answer came back — offline, a
 * server fault, a transport failure, a call the user let go unsent — the screen's own SPEC text
 * leads ("Failed to submit recharge request", "Purchase failed", …) with the reason beneath.
 */
function moneyFailure(error: string, screenText: string): { text: string; detail?: string } {
  return isTransportFailure(error) || error === MONEY_NOT_SENT
    ? { text: screenText, detail: error }
    : { text: error };
}

/** Toasts `moneyFailure`; `params` fill the server's message (e.g. a configured minimum). */
export function toastMoneyFailure(error: string, screenText: string, params?: Record<string, unknown>): void {
  // Want of a verified identity is explained by the shell's dialog with its way out (IdentityNeeded):
  // a toast under its backdrop would only repeat it, dimmed.
  if (error === KYC_REQUIRED) return;
  const { text, detail } = moneyFailure(error, screenText);
  toast(text, 'error', params, detail);
}
