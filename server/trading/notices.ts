import type { Kysely } from 'kysely';
import { ticksToPrice } from '#shared/money';
import type { OrderEvent } from '#shared/notices';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { notify } from '../notify/notify';
import type { OrderRecord } from './order-rows';

/**
 * What happened to a stock order after the user placed it — a fill by the match job (a limit, an
 * AMO at the open, a stop or GTT that fired), an expiry at the close, a rejection, an intraday
 * square-off — told to its owner in the same transaction (notify/notify.ts). A cancel the user asked
 * for is not told: they are looking at it.
 */
export async function orderNotice(
  deps: Deps,
  db: Kysely<DB>,
  order: OrderRecord,
  event: OrderEvent,
  at: number,
): Promise<void> {
  const instrument = deps.market.instrument(order.symbol);
  const ticks = order.side === 'sell' && order.sell_price !== null ? order.sell_price : order.price;
  await notify(db, {
    userId: order.user_id,
    kind: 'order',
    refId: order.id,
    symbol: order.symbol,
    params: {
      event,
      no: order.no,
      side: order.side,
      count: order.qty,
      price: ticksToPrice(Number(ticks)),
      decimals: instrument?.decimals ?? 2,
      region: instrument?.region ?? 'IN',
      name: instrument?.name ?? order.symbol,
    },
    at,
  });
}
