import type { Kysely } from 'kysely';
import type { DayPosition, DayPositions, OrderProduct } from '#shared/contract/trading';
import { divRoundHalfUp, fromMinor, priceToTicks, ticksToPrice, tradeValueMinor } from '#shared/money';
import { STOCK_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { usdRate, valuationTicks } from './fx';
import { lastSession } from './hours';

/**
 * Today's positions (the app's Positions screen): the user's executed stock orders since the
 * latest session of each instrument's market opened, one row per instrument and product, valued
 * at the server's quote. Exit is an ordinary sell (deals.ts); this only reads.
 */

/** The latest session of any market opened within this (a weekend is the longest gap). */
const LOOKBACK_MS = 5 * 86_400_000;

interface Tally {
  symbol: string;
  product: OrderProduct;
  name: string;
  market: string;
  region: string;
  buyCount: number;
  buyValue: number;
  buyNative: number;
  sellCount: number;
  sellValue: number;
  sellNative: number;
  fee: number;
}

const avg = (native: number, count: number) =>
  count === 0 ? 0 : ticksToPrice(Number(divRoundHalfUp(BigInt(native), BigInt(count))));

/** `part` of `total` in proportion `n / d`, HALF_UP (the whole when n = d). */
const share = (total: number, n: number, d: number) =>
  n === d ? total : Number(divRoundHalfUp(BigInt(total) * BigInt(n), BigInt(d)));

export async function dayPositions(deps: Deps, db: Kysely<DB>, userId: number): Promise<DayPositions> {
  const now = deps.clock.now();
  const executed = await db
    .selectFrom('orders')
    .select([
      'symbol',
      'name',
      'market',
      'region',
      'side',
      'product',
      'qty',
      'price',
      'sell_price',
      'price_all',
      'fee',
      'updated_at',
    ])
    .where('user_id', '=', userId)
    .where('kind', '=', 'stock')
    .where('status', '=', STOCK_STATUS.success)
    .where('updated_at', '>=', now - LOOKBACK_MS)
    .orderBy('id')
    .execute();
  const tallies = new Map<string, Tally>();
  for (const o of executed) {
    const instrument = deps.market.instrument(o.symbol);
    // Only what the instrument's latest session (running, or the last one) traded.
    if (instrument && o.updated_at < lastSession(instrument.schedule, now).open) continue;
    if (!instrument && o.updated_at < now - 86_400_000) continue;
    const product: OrderProduct = o.product === 'intraday' ? 'intraday' : 'delivery';
    const key = `${product}:${o.symbol}`;
    let t = tallies.get(key);
    if (!t) {
      t = {
        symbol: o.symbol,
        product,
        name: instrument?.name ?? o.name,
        market: instrument?.market ?? o.market,
        region: instrument?.region ?? o.region,
        buyCount: 0,
        buyValue: 0,
        buyNative: 0,
        sellCount: 0,
        sellValue: 0,
        sellNative: 0,
        fee: 0,
      };
      tallies.set(key, t);
    }
    t.fee += o.fee;
    // A buy's `price_all` is its value and `price` its fill; a sell's its proceeds and `sell_price`.
    if (o.side === 'buy') {
      t.buyCount += o.qty;
      t.buyValue += o.price_all;
      t.buyNative += o.price * o.qty;
    } else {
      t.sellCount += o.qty;
      t.sellValue += o.price_all;
      t.sellNative += (o.sell_price ?? o.price) * o.qty;
    }
  }
  if (tallies.size === 0) return { rows: [], pnl: '0.00', as_of: now };

  const symbols = [...new Set([...tallies.values()].map((t) => t.symbol))];
  const [held, intraday, usd] = await Promise.all([
    db
      .selectFrom('positions')
      .select(['symbol', 'qty', 'reserved_qty'])
      .where('user_id', '=', userId)
      .where('symbol', 'in', symbols)
      .execute(),
    // Open intraday units: executed intraday orders not yet squared off, less pending intraday
    // sells (positions.ts `openIntradayUnits`, for every symbol at once).
    db
      .selectFrom('orders')
      .select(['symbol', 'side', 'status', 'qty', 'square_at'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'stock')
      .where('product', '=', 'intraday')
      .where('symbol', 'in', symbols)
      .where((w) =>
        w.or([
          w('square_at', 'is not', null),
          w.and([w('side', '=', 'sell'), w('status', '=', STOCK_STATUS.pending)]),
        ]),
      )
      .execute(),
    usdRate(deps, db),
  ]);
  const free = new Map(held.map((p) => [p.symbol, Number(p.qty) - Number(p.reserved_qty)]));
  const open = new Map<string, { units: number; squareAt: number | null }>();
  for (const o of intraday) {
    const entry = open.get(o.symbol) ?? { units: 0, squareAt: null };
    entry.units += o.side === 'buy' ? Number(o.qty) : -Number(o.qty);
    if (o.square_at !== null) entry.squareAt = Math.max(entry.squareAt ?? 0, Number(o.square_at));
    open.set(o.symbol, entry);
  }

  const rows: DayPosition[] = [];
  let total = 0;
  for (const t of tallies.values()) {
    const instrument = deps.market.instrument(t.symbol);
    const quote = deps.market.quote(t.symbol);
    const rate = valuationTicks(usd, instrument?.currency ?? (t.region === 'US' ? 'USD' : 'INR'));
    const net = t.buyCount - t.sellCount;
    const priced = quote !== undefined && quote.price > 0 && rate !== null;
    const last = priced ? priceToTicks(quote.price) : 0;
    // The open units at the last price; without one, at their own average (no invented move).
    const openValue =
      net === 0
        ? 0
        : priced
          ? Math.sign(net) * tradeValueMinor(last, Math.abs(net), rate)
          : net > 0
            ? share(t.buyValue, net, t.buyCount)
            : -share(t.sellValue, -net, t.sellCount);
    const pnl = t.sellValue - t.buyValue + openValue;
    total += pnl;
    const freeUnits = Math.max(0, free.get(t.symbol) ?? 0);
    const intradayOpen = Math.max(0, open.get(t.symbol)?.units ?? 0);
    const intradayExit = Math.min(intradayOpen, freeUnits);
    const exitable =
      t.product === 'intraday' ? intradayExit : Math.max(0, Math.min(net, freeUnits - intradayExit));
    rows.push({
      stock: t.symbol,
      name: t.name,
      market: t.market,
      region: t.region,
      decimals: instrument?.decimals ?? 2,
      product: t.product,
      net,
      buy_count: t.buyCount,
      buy_avg: avg(t.buyNative, t.buyCount),
      sell_count: t.sellCount,
      sell_avg: avg(t.sellNative, t.sellCount),
      prasent: priced ? quote.price : 0,
      pnl: fromMinor(pnl),
      charges: fromMinor(t.fee),
      exitable,
      square_at: t.product === 'intraday' && intradayOpen > 0 ? (open.get(t.symbol)?.squareAt ?? null) : null,
      as_of: priced ? quote.asOf : 0,
    });
  }
  rows.sort(
    (a, b) =>
      Number(a.product === 'delivery') - Number(b.product === 'delivery') || a.name.localeCompare(b.name),
  );
  return { rows, pnl: fromMinor(total), as_of: now };
}
