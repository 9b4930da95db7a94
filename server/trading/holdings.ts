import { type Kysely, sql } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { BlockItem } from '#shared/contract/invest';
import { priceToTicks, ticksToPrice, tradeValueMinor } from '#shared/money';
import { BLOCK_STATUS, IPO_STATUS, OFFER_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound, RecordedRefusal } from '../lib/errors';
import { chargeColumns, chargesFor } from './charges';
import { rateTicks } from './fx';
import { assertInSession, lotUnlockAt, sessionAt } from './hours';
import { isListed } from './ipo';
import { insertOrder, orderNo } from './order-rows';
import { currencyOf, regionOf, tradable, withinTolerance } from './placement';
import { blockBuyAmounts, creditSale, payBuy } from './postings';

/**
 * Block trading (kind bulk) and QIP (kind finalize): the items on offer, their purchases, and the
 * sale of lot holdings — an allotted IPO application or a block/QIP purchase — by order number.
 * These lots are kept on their order rows rather than in `positions`, so each is sold whole, once,
 * with its own profit/loss.
 */

/** The block/QIP items on offer (status 1) of one kind (SPEC's `mold`); the search matches the code, with or without its .NS/.BO suffix. */
export async function blockList(
  deps: Deps,
  db: Kysely<DB>,
  input: ReqOf<typeof contract.blockList>,
): Promise<{ rows: BlockItem[] }> {
  const code = input.code?.trim().toUpperCase() ?? '';
  const rows = await db
    .selectFrom('block_items')
    .selectAll()
    .where('kind', '=', input.mold)
    .where('status', '=', OFFER_STATUS.open)
    .$if(code !== '', (q) => q.where(sql<string>`upper(symbol)`, 'like', `%${code.replace(/[%_\\]/g, '')}%`))
    .orderBy('id')
    .execute();
  const now = deps.clock.now();
  return {
    rows: rows.map((r): BlockItem => {
      const ins = deps.market.instrument(r.symbol);
      const q = deps.market.quote(r.symbol);
      return {
        id: r.id,
        tag: r.symbol,
        name: ins?.name ?? r.symbol,
        // The price a buy would be placed at now: the ask held inside the block window.
        price: ticksToPrice(
          q && q.price > 0 ? inBlockWindow(deps, r.price, q.price, ins?.decimals ?? 2) : r.price,
        ),
        market_price: q?.price ?? 0,
        count: r.min_qty,
        status: r.status,
        type: r.region,
        mold: r.kind as BlockItem['mold'],
        decimals: ins?.decimals ?? 2,
        remaining: Math.max(0, Number(r.supply) - Number(r.sold)),
        session: ins ? sessionAt(ins, now) : null,
      };
    }),
  };
}

/**
 * The block window (DESIGN "Block/QIP"): a lot's price is its item's ask held within
 * ±BLOCK_BAND_BPS (default 1 %, NSE's block-deal window) of the reference price — the live market
 * price when the order is placed — on the instrument's price grid, the lower edge rounded up and the
 * upper down so the price never leaves the window. So a lot is never a discount to resell beyond the
 * band: bought at one session and sold at the next at an unchanged market, it gains at most the
 * band (tests/server/block-window.test.ts).
 */
export function inBlockWindow(deps: Deps, askTicks: number, reference: number, decimals: number): number {
  const ref = BigInt(priceToTicks(reference));
  const band = BigInt(deps.config.blockBandBps);
  const step = BigInt(10 ** (4 - Math.min(4, Math.max(0, decimals))));
  const lowRaw = ref * (10_000n - band);
  const unit = 10_000n * step;
  const low = ((lowRaw + unit - 1n) / unit) * step;
  const high = ((ref * (10_000n + band)) / unit) * step;
  const ask = BigInt(askTicks);
  return Number(ask < low ? low : ask > high ? high : ask);
}

export interface BlockBuyInput {
  tag: string;
  count: number;
  price: number;
  mold: 'bulk' | 'finalize';
  id?: number;
}

/**
 * Buys at the block price: value = price × count converted at the rate now (trading/fx.ts; a USD
 * lot without a fresh rate is refused, `errors.rateNotUpdated`), plus a stock buy's charges on that
 * value (postings.ts `blockBuyAmounts`), kept itemised on the row as a stock fill keeps them (its
 * contract note reads them back); posted as `buy…` and `transactionExpenses`; the order records the
 * rate. Once the lot is identified, a refusal
 * is kept as a failed order (`RecordedRefusal`). The transaction password is checked by
 * the route before the transaction opens (a wrong code must count even though nothing is bought).
 */
export async function buyBlock(deps: Deps, db: Kysely<DB>, userId: number, input: BlockBuyInput) {
  if (input.id === undefined) throw invalid();
  const item = await db
    .selectFrom('block_items')
    .selectAll()
    .where('id', '=', input.id)
    .where('kind', '=', input.mold)
    .executeTakeFirst();
  if (!item) throw notFound();
  if (item.symbol !== input.tag) throw invalid();
  const instrument = deps.market.instrument(item.symbol);
  const now = deps.clock.now();
  // The server decides the lot's price now: the ask inside the block window of the live price.
  const reference = deps.market.quote(item.symbol);
  const price =
    reference && reference.price > 0
      ? inBlockWindow(deps, item.price, reference.price, instrument?.decimals ?? 2)
      : null;
  const base = {
    user_id: userId,
    kind: input.mold,
    symbol: item.symbol,
    market: instrument?.market ?? item.region,
    name: instrument?.name ?? item.symbol,
    side: 'buy' as const,
    qty: input.count,
    limit_price: null,
    price: price ?? item.price,
    sell_price: null,
    profit: null,
    ref_id: item.id,
    created_at: now,
    updated_at: now,
    expires_at: null,
    region: instrument?.region ?? regionOf(item.region),
  };
  try {
    if (item.status !== OFFER_STATUS.open) throw invalid('errors.blockUnavailable');
    if (input.count < item.min_qty) throw invalid('errors.belowMinimumQuantity');
    // No reference price, no block window: nothing is bought at a price the server cannot check.
    if (price === null) throw new ApiError('errors.noQuote', 409);
    if (!withinTolerance('buy', price, priceToTicks(input.price))) throw invalid('errors.priceChanged');
    if (instrument) assertInSession(instrument, now);
    const rate = await rateTicks(deps, db, currencyOf(deps, item.symbol, item.region));
    const { value, charges } = blockBuyAmounts(deps.config.charges, instrument, price, input.count, rate);
    if (value <= 0) throw invalid();
    await takeSupply(db, item, input.count);
    const order = await insertOrder(db, {
      ...base,
      no: orderNo(input.mold, now),
      status: BLOCK_STATUS.success,
      ...chargeColumns(charges),
      price_all: value + charges.total,
      rate,
      unlock_at: lotUnlockAt(deps, instrument, now),
    });
    await payBuy(db, { userId, orderId: order.id, at: now, kind: instrument?.kind }, value, charges.total);
    return order;
  } catch (err) {
    // SPEC §4: a refused buy of a real lot is a failed order (status 2) with its reason; no money
    // moves for it (the audit checks that a non-success block order has no postings).
    if (!(err instanceof ApiError)) throw err;
    throw new RecordedRefusal(err, async (trx) => {
      await insertOrder(trx, {
        ...base,
        no: orderNo(input.mold, now),
        status: BLOCK_STATUS.failed,
        fee: 0,
        price_all: 0,
        reason: err.key,
      });
    });
  }
}

/**
 * An item's supply is finite: the guarded update takes the quantity or changes nothing, so two
 * buyers racing for the last lots cannot both have them (`errors.blockSoldOut`, or
 * `errors.blockSupplyShort` with what is left).
 */
async function takeSupply(
  db: Kysely<DB>,
  item: { id: number; min_qty: number },
  count: number,
): Promise<void> {
  const taken = await db
    .updateTable('block_items')
    .set({ sold: sql<number>`sold + ${count}` })
    .where('id', '=', item.id)
    .where('status', '=', OFFER_STATUS.open)
    .where(sql<boolean>`sold + ${count} <= supply`)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 1) return;
  // Read again: the row read before may predate the purchases that used the supply up.
  const current = await db
    .selectFrom('block_items')
    .select(['supply', 'sold'])
    .where('id', '=', item.id)
    .executeTakeFirstOrThrow();
  const left = Math.max(0, Number(current.supply) - Number(current.sold));
  throw left < item.min_qty
    ? new ApiError('errors.blockSoldOut', 409)
    : new ApiError('errors.blockSupplyShort', 409, { available: left });
}

export interface LotSaleInput {
  no: string;
  price?: number;
  sell_price?: number;
}

/**
 * Sells a whole lot at the server's quote, in its market's session only. Proceeds and profit/loss
 * (SPEC's (sell price − price) × count) are converted at the rate now (trading/fx.ts), recorded on
 * the sale; the buy keeps its own. The sale pays a stock sell's charges: the row keeps them as a
 * stock order does (`price_all` the proceeds, `fee` and `ch_*` the charges), posted as the sale's
 * proceeds and one `transactionExpenses`. A lot whose quote moved beyond tolerance below the price
 * the user saw is refused rather than left pending: lots are sold whole, at once.
 */
export async function sellLot(deps: Deps, db: Kysely<DB>, userId: number, input: LotSaleInput) {
  const lot = await db
    .selectFrom('orders')
    .selectAll()
    .where('no', '=', input.no)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!lot) throw notFound();
  if (lot.kind === 'stock' || lot.side !== 'buy') throw invalid('errors.notSellable');
  if (lot.closed_at !== null) throw invalid('errors.alreadySold');
  const held = lot.kind === 'ipo' ? lot.status === IPO_STATUS.allotted : lot.status === BLOCK_STATUS.success;
  if (!held) throw invalid('errors.notSellable');
  if (lot.kind === 'ipo' && !isListed(deps, lot.symbol)) throw invalid('errors.ipoNotListed');
  // The lock-in: a block/QIP lot bought below the market cannot be turned back into cash at once.
  if (lot.unlock_at !== null && lot.unlock_at > deps.clock.now()) {
    throw new ApiError('errors.lotLocked', 409, { until: lot.unlock_at });
  }
  const { instrument, quote } = tradable(deps, lot.symbol);
  assertInSession(instrument, deps.clock.now());
  const quoteTicks = priceToTicks(quote.price);
  const seen = input.sell_price ?? input.price;
  if (seen !== undefined && !withinTolerance('sell', quoteTicks, priceToTicks(seen))) {
    throw invalid('errors.priceMoved');
  }
  // The rate first: without a fresh one the sale is refused before anything is written.
  const rate = await rateTicks(deps, db, instrument.currency);
  const now = deps.clock.now();
  const closed = await db
    .updateTable('orders')
    .set({ closed_at: now, updated_at: now })
    .where('id', '=', lot.id)
    .where('closed_at', 'is', null)
    .executeTakeFirst();
  if (Number(closed.numUpdatedRows) !== 1) throw invalid('errors.alreadySold');
  const proceeds = tradeValueMinor(quoteTicks, lot.qty, rate);
  // A sale pays a stock sell's charges (the same schedule, the same functions as a fill).
  const charges = chargesFor(deps.config.charges, instrument, 'sell', proceeds, 'delivery');
  const sale = await insertOrder(db, {
    no: orderNo(lot.kind as 'ipo' | 'bulk' | 'finalize', now),
    user_id: userId,
    kind: lot.kind,
    symbol: lot.symbol,
    market: lot.market,
    name: lot.name,
    side: 'sell',
    status: lot.kind === 'ipo' ? IPO_STATUS.sold : BLOCK_STATUS.success,
    qty: lot.qty,
    limit_price: null,
    price: lot.price,
    sell_price: quoteTicks,
    ...chargeColumns(charges),
    price_all: proceeds,
    profit: tradeValueMinor(quoteTicks - lot.price, lot.qty, rate),
    ref_id: lot.id,
    created_at: now,
    updated_at: now,
    expires_at: null,
    rate,
    region: lot.region,
  });
  await creditSale(db, { userId, orderId: sale.id, at: now, kind: instrument.kind }, proceeds, charges.total);
  return sale;
}
