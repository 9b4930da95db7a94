import type { CallResult, Contract, EndpointName, ReqOf, ResOf } from '#shared/contract/index';
import type { MoneyView } from '../money';
import type { Context } from './context';

/**
 * The money domain: every money call goes through the journal (workers/money.ts) — written to the
 * device store with its Idempotency-Key before it leaves, asked about after a lost answer; its
 * states arrive on the `money` topic.
 */
export function moneyApi(ctx: Context) {
  return {
    /** A money call under `key`; a lost answer resolves as `core.money.unconfirmed` and is checked later. */
    sendMoney<K extends EndpointName>(
      name: K,
      input: ReqOf<Contract[K]>,
      key: string,
    ): Promise<CallResult<ResOf<Contract[K]>>> {
      return ctx.money.send(name, input, key) as Promise<CallResult<ResOf<Contract[K]>>>;
    },
    /** Money calls whose outcome is not settled yet. */
    moneyCalls(): Promise<MoneyView[]> {
      return ctx.money.open();
    },
    /** Checks the unconfirmed calls now (when the server is reachable). */
    reconcileMoney(): Promise<void> {
      return ctx.money.reconcile();
    },
    /** The user let a never-received call go. */
    forgetMoney(key: string): Promise<void> {
      return ctx.money.forget(key);
    },
  };
}
