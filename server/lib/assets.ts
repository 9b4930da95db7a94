import type { Kysely } from 'kysely';
import { conversionRateTicks, PRICE_SCALE, priceToTicks, tradeValueMinor } from '../../src/shared/money';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { BLOCK, IPO, STOCK } from '../trading/orders';

/** Account-currency ticks per unit of an instrument's currency (the configured USD rate). */
export async function rateTicks(db: Kysely<DB>, currency: string): Promise<number> {
  if (currency !== 'USD') return PRICE_SCALE;
  const row = await db.selectFrom('config').select('value').where('tag', '=', 'rate').executeTakeFirst();
  return conversionRateTicks(currency, row?.value);
}

/**
 * Total assets (SPEC "total"): available cash; open positions and held IPO/block lots valued at
 * the server's current quotes (at cost when the market has no quote: never at an invented price);
 * money frozen by IPO applications and reserved by pending buys; active fund principal. Loan
 * principal outstanding is reported beside it. User info polls this every 3 s: four indexed reads.
 */
export async function totalAssets(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  balance: number,
): Promise<{ total: number; loan: number }> {
  const rates = new Map<string, number>();
  const atMarket = async (symbol: string, qty: number, otherwise: number): Promise<number> => {
    const instrument = deps.market.instrument(symbol);
    const quote = deps.market.quote(symbol);
    if (!instrument || !quote) return otherwise;
    let rate = rates.get(instrument.currency);
    if (rate === undefined) {
      rate = await rateTicks(db, instrument.currency);
      rates.set(instrument.currency, rate);
    }
    return tradeValueMinor(priceToTicks(quote.price), qty, rate);
  };

  let total = balance;
  const positions = await db
    .selectFrom('positions')
    .select(['symbol', 'qty', 'cost'])
    .where('user_id', '=', userId)
    .where('qty', '>', 0)
    .execute();
  for (const p of positions) total += await atMarket(p.symbol, p.qty, p.cost);

  const orders = await db
    .selectFrom('orders')
    .select(['mold', 'status', 'symbol', 'count', 'price', 'rate', 'price_all'])
    .where('user_id', '=', userId)
    .where('state', '=', 'buy')
    .where('closed_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('mold', '=', 'stock'), eb('status', '=', STOCK.pending)]),
        eb.and([eb('mold', '=', 'ipo'), eb('status', 'in', [IPO.pending, IPO.allotted])]),
        eb.and([eb('mold', 'in', ['bulk', 'finalize']), eb('status', '=', BLOCK.success)]),
      ]),
    )
    .execute();
  for (const o of orders) {
    const reserved = o.mold === 'stock' || (o.mold === 'ipo' && o.status === IPO.pending);
    total += reserved
      ? o.price_all
      : await atMarket(o.symbol, o.count, tradeValueMinor(o.price, o.count, o.rate));
  }

  const funds = await db
    .selectFrom('fund_orders')
    .select((eb) => eb.fn.sum<number>('amount').as('sum'))
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  total += Number(funds?.sum ?? 0);

  const loans = await db
    .selectFrom('loans')
    .select((eb) => eb.fn.sum<number>('count').as('due'))
    .where('user_id', '=', userId)
    .where('state', '=', 4)
    .executeTakeFirst();
  return { total, loan: Number(loans?.due ?? 0) };
}
