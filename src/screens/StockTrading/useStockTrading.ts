import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useWatch } from '../../api/hooks';
import { useMoneyCall } from '../../api/money';
import type { OrderRow } from '../../shared/contract/trading';
import {
  isMarketOpen,
  lastSession,
  nextSession,
  type ScheduleId,
  scheduleOf,
} from '../../shared/market-hours';
import { priceToTicks, ticksToPrice } from '../../shared/money';
import {
  checkSellQuantity,
  checkStockQuantity,
  DEFAULT_POSITION_SIZE,
  holdingTypeOfMarket,
  POLL_MS,
  type PositionSize,
  parseQuantity,
  protectedLimit,
  quantityMaximum,
  STOCK_QTY_MAX,
  STOCK_QTY_MIN,
} from '../../shared/rules';
import { STOCK_STATUS } from '../../shared/status';
import { useNow, useServerNow } from '../../ui/clock';
import { freshness } from '../../ui/freshness';
import { DEPTH_POLL_MS } from '../_parts/market/DepthLadder';

export type Side = 'buy' | 'sell';
/**
 * Market and limit, and the orders of issue 13: stop-loss (trigger + limit), stop-loss-market and
 * good-till-triggered (trigger + limit, valid up to a year, either side of the market).
 */
export type OrderType = 'market' | 'limit' | 'sl' | 'slm' | 'gtt';
/** A GTT with one trigger, or OCO: a sell of a holding at a target or a stop, whichever first. */
export type GttKind = 'single' | 'oco';
/** Issue 30: delivery (the shares are kept) or intraday (squared off at the session's close). */
export type Product = 'delivery' | 'intraday';
/** Issue 30: day (rests until the close) or IOC (immediate or cancel). */
export type Validity = 'day' | 'ioc';

/** What is wrong with each field of an OCO (an i18n key), or null; all null when it may be sent. */
export interface OcoErrors {
  target: string | null;
  targetLimit: string | null;
  stop: string | null;
  stopLimit: string | null;
}

/**
 * The ticket's checks of an OCO, the server's rules (server/trading/README.md): both legs, the
 * target above the last price and the stop below it, each limit at or below its trigger (a sell).
 * `last` null (no price yet): only what can be said without it.
 */
export function checkOco(
  legs: { target: number | null; targetLimit: number | null; stop: number | null; stopLimit: number | null },
  last: number | null,
): OcoErrors {
  const { target, targetLimit, stop, stopLimit } = legs;
  return {
    target:
      target === null
        ? 'errors.ocoBothTriggers'
        : last !== null && target <= last
          ? 'errors.ocoTarget'
          : null,
    targetLimit:
      targetLimit === null
        ? 'trade.limit.invalid'
        : target !== null && targetLimit > target
          ? 'errors.triggerLimit'
          : null,
    stop: stop === null ? 'errors.ocoBothTriggers' : last !== null && stop >= last ? 'errors.ocoStop' : null,
    stopLimit:
      stopLimit === null
        ? 'trade.limit.invalid'
        : stop !== null && stopLimit > stop
          ? 'errors.triggerLimit'
          : null,
  };
}

/** A GTT's validity: whole days, 1 to 365 (the server checks it too). */
const GTT_MAX_DAYS = 365;
function parseValidDays(text: string): number | null {
  return /^\d{1,3}$/.test(text) && Number(text) >= 1 && Number(text) <= GTT_MAX_DAYS ? Number(text) : null;
}

/** The largest page the holdings call gives: the position of this symbol is looked up in it. */
const POSITIONS_LIMIT = 100;

/**
 * A typed limit price: a positive decimal with at most the instrument's decimals. The server takes
 * it as the price the user saw (contract dealBuy/dealSell), so it is sent as typed, never rounded.
 */
export function parseLimitPrice(text: string, decimals: number): number | null {
  const m = /^(\d{1,9})(?:\.(\d+))?$/.exec(text.trim());
  if (!m || (m[2]?.length ?? 0) > decimals) return null;
  const price = Number(text.trim());
  return price > 0 ? price : null;
}

/**
 * The buy/sell screen (SPEC §2, §5): live price every 3 s, the user's position and pending orders
 * in this symbol, the quantity stepper with its half/full position limits, and the order itself.
 *
 * Every money figure before the fill — value, each charge, the total, the balance and what it
 * affords — is the server's `orderQuote` for the order as typed (issue 13: charges are computed
 * once, on the server); the fill is the server's too, at its quote (DESIGN rule 3).
 */
export function useStockTrading() {
  const params = useParams<{ symbol: string; market: string; name?: string }>();
  const symbol = params.symbol ?? '';
  const [search, setSearch] = useSearchParams();
  const side: Side = search.get('type') === 'sell' ? 'sell' : 'buy';

  const quote = useWatch('quote', { symbol }, POLL_MS.stockTrading);
  const market = quote.data?.market ?? params.market ?? '';
  const kind = holdingTypeOfMarket(market);
  const positions = useWatch(
    'holdings',
    { type: kind, page: 1, limit: POSITIONS_LIMIT },
    POLL_MS.stockTrading,
  );
  const pending = useWatch('orderList', { tag: symbol, status: STOCK_STATUS.pending }, POLL_MS.stockTrading);
  // The same poll as the order book on this screen (one request for both).
  const depth = useWatch('depth', symbol ? { symbol } : null, DEPTH_POLL_MS);
  const position = positions.data?.rows.find((r) => r.stock === symbol) ?? null;

  const [size, setSize] = useState<PositionSize>(DEFAULT_POSITION_SIZE);
  const [qtyText, setQtyText] = useState('1');
  const [chosenType, setOrderType] = useState<OrderType>('market');
  const [limitText, setLimitText] = useState('');
  const [triggerText, setTriggerText] = useState('');
  const [daysText, setDaysText] = useState(String(GTT_MAX_DAYS));
  const [chosenKind, setGttKind] = useState<GttKind>('single');
  const [chosenProduct, setProduct] = useState<Product>('delivery');
  const [chosenValidity, setValidity] = useState<Validity>('day');
  const [stopText, setStopText] = useState('');
  const [stopLimitText, setStopLimitText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [filled, setFilled] = useState<OrderRow | null>(null);
  const buy = useMoneyCall('dealBuy');
  const sell = useMoneyCall('dealSell');

  // No market order on a price that is not live (issue 11): limit only, and the quote is fetched
  // afresh before the confirmation.
  const now = useNow();
  // The server's clock: a price's time and a market's session are the server's, not the phone's.
  const serverNow = useServerNow();
  const q = quote.data;
  const quoteTier = q
    ? freshness({
        at: q.as_of,
        fetchedAt: quote.updatedAt,
        now,
        serverNow,
        intervalMs: quote.intervalMs,
        stale: quote.stale,
        schedule: scheduleOf(q.market, q.region),
      })
    : 'stale';
  const marketAllowed = quoteTier !== 'stale';
  // A stale price allows only a limit; stops too, as they trigger at the server's later quotes.
  const orderType: OrderType = marketAllowed || chosenType !== 'market' ? chosenType : 'limit';
  const stop = orderType === 'sl' || orderType === 'slm' || orderType === 'gtt';
  const gtt = orderType === 'gtt';
  // OCO sells a holding: a buy GTT has its single trigger.
  const gttKind: GttKind = side === 'sell' ? chosenKind : 'single';
  const oco = gtt && gttKind === 'oco';
  const validDays = gtt ? parseValidDays(daysText) : null;
  // A GTT lives for days: delivery only. A stop or GTT waits for its trigger: never IOC.
  const product: Product = gtt ? 'delivery' : chosenProduct;
  const validity: Validity = orderType === 'market' || orderType === 'limit' ? chosenValidity : 'day';
  // Open or closed is the server's (its clock decides what an order does), from the depth poll the
  // ticket's order book makes anyway; until it answers, the trading hours on the server's clock.
  const session = marketSession(
    q ? scheduleOf(q.market, q.region) : scheduleOf(market, undefined),
    serverNow,
    depth.data?.session,
  );
  // A market or limit order on a closed market is an after-market order, sent at the next open
  // (issue 30; the server's placeAmo): never filled at the closed market's last price.
  const amo = (orderType === 'market' || orderType === 'limit') && !session.open;
  const decimals = quote.data?.decimals ?? 2;
  const qty = parseQuantity(qtyText);
  const available = position?.available ?? 0;
  // A sell with nothing to sell is not an error the user made: the tab is quietly off.
  const canSell = available > 0;
  const limited = orderType === 'limit' || orderType === 'sl' || gtt;
  const limit = limited ? parseLimitPrice(limitText, decimals) : null;
  const trigger = stop ? parseLimitPrice(triggerText, decimals) : null;
  // An OCO: `trigger` and `limit` are its target and the target's limit, beside its stop leg.
  const stopTrigger = oco ? parseLimitPrice(stopText, decimals) : null;
  const stopLimit = oco ? parseLimitPrice(stopLimitText, decimals) : null;
  const ocoErrors = oco
    ? checkOco(
        { target: trigger, targetLimit: limit, stop: stopTrigger, stopLimit },
        quote.data?.price ?? null,
      )
    : null;
  const ocoBlocked = ocoErrors !== null && Object.values(ocoErrors).some((e) => e !== null);
  const limitError =
    limited && limit === null
      ? 'trade.limit.invalid'
      : stop && trigger === null
        ? 'errors.triggerMissing'
        : null;
  // The price sent is what the user saw: the limit, or the live price (market, stop-loss-market).
  const price = limited ? limit : (quote.data?.price ?? null);
  // The review prices an order where it reserves: its limit, or a stop-loss-market's protected limit.
  // An OCO is priced at its stop's limit: the least it would sell for.
  // An after-market order reserves as a market order's protection allows, from the last price (the
  // server's placeAmo): its figures are the server's at that price.
  const protect = (p: number) => ticksToPrice(protectedLimit(side, priceToTicks(p)));
  const quotedAt = oco
    ? stopLimit
    : (limit ?? (trigger !== null ? protect(trigger) : amo && quote.data ? protect(quote.data.price) : null));

  // The server's figures for this order; a quantity outside SPEC's range asks for one unit, which
  // still answers the balance, the shares held and what the balance affords.
  const specQty = qty !== null && checkStockQuantity(qty, 'full') === null ? qty : STOCK_QTY_MIN;
  const ticket = useWatch(
    'orderQuote',
    symbol && (orderType === 'market' || quotedAt !== null)
      ? { tag: symbol, side, count: specQty, ...(quotedAt !== null ? { price: quotedAt } : {}) }
      : null,
    POLL_MS.stockTrading,
  );
  const t = ticket.data;
  // The answer shown must be for this very order (a poll keeps the last one until the next arrives).
  const figures =
    t && t.side === side && t.count === qty && (quotedAt === null || t.price === quotedAt) ? t : null;
  const max = quantityMaximum(
    size,
    side,
    side === 'buy' ? (t?.affordable ?? null) : canSell ? available : null,
  );
  const qtyError =
    checkStockQuantity(qty, size) ??
    (qty !== null && side === 'sell' && canSell ? checkSellQuantity(qty, available) : null) ??
    (qty !== null && side === 'buy' && t && qty > t.affordable ? 'trade.qty.maxFunds' : null);

  function setSide(next: Side) {
    setSearch(next === 'sell' ? { type: 'sell' } : {}, { replace: true });
    setFilled(null);
    setFailure(null);
  }

  function step(delta: 1 | -1) {
    const from = qty ?? STOCK_QTY_MIN - delta;
    setQtyText(String(Math.min(Math.max(max.qty, STOCK_QTY_MIN), Math.max(STOCK_QTY_MIN, from + delta))));
  }

  const blocked =
    qtyError !== null ||
    limitError !== null ||
    ocoBlocked ||
    (gtt && validDays === null) ||
    price === null ||
    (side === 'sell' && !canSell);

  function openConfirm() {
    if (blocked) return;
    if (!marketAllowed) quote.reload();
    setFailure(null);
    setFilled(null);
    setConfirming(true);
  }

  function closeConfirm() {
    setConfirming(false);
    setFailure(null);
    setFilled(null);
  }

  async function submit() {
    if (qty === null || price === null || blocked) return;
    setBusy(true);
    setFailure(null);
    const input = {
      tag: symbol,
      count: qty,
      price,
      mold: 'stock' as const,
      ...(stop && trigger !== null
        ? { order_type: oco ? ('oco' as const) : orderType, trigger }
        : // What the ticket placed, so the server need not infer it from the price (issue 30).
          { order_type: orderType === 'limit' ? ('limit' as const) : ('market' as const) }),
      ...(oco && stopTrigger !== null && stopLimit !== null
        ? { stop_trigger: stopTrigger, stop_price: stopLimit }
        : {}),
      ...(gtt && validDays !== null ? { valid_days: validDays } : {}),
      product,
      validity,
    };
    const result = side === 'buy' ? await buy(input) : await sell(input);
    setBusy(false);
    if (!result.ok) {
      setFailure(result.error);
      return;
    }
    setFilled(result.data);
    positions.reload();
    pending.reload();
  }

  return {
    call: side === 'buy' ? buy : sell,
    symbol,
    name: params.name ?? quote.data?.name ?? symbol,
    market,
    side,
    setSide,
    quote,
    position,
    positions,
    pending,
    size,
    setSize,
    max,
    positionMax: STOCK_QTY_MAX[size],
    canSell,
    blocked,
    ticket,
    figures,
    qtyText,
    setQtyText,
    qty,
    qtyError,
    step,
    orderType,
    setOrderType,
    marketAllowed,
    limitText,
    triggerText,
    setTriggerText,
    trigger,
    stop,
    gtt,
    gttKind,
    setGttKind,
    product,
    setProduct,
    validity,
    setValidity,
    session,
    amo,
    oco,
    ocoErrors,
    stopText,
    setStopText,
    stopLimitText,
    setStopLimitText,
    stopTrigger,
    stopLimit,
    limit,
    daysText,
    setDaysText,
    validDays,
    setLimitText,
    limitError,
    price,
    decimals,
    region: quote.data?.region ?? 'IN',
    confirming,
    openConfirm,
    closeConfirm,
    submit,
    busy,
    failure,
    filled,
  };
}

/**
 * The instrument's market now: open or not, today's close (or the last one) and the next open, the
 * exchange's times (shown in its zone, labelled: src/shared/format.ts).
 */
export interface MarketSession {
  schedule: ScheduleId;
  open: boolean;
  /** The close of the session running now, or of the last one. */
  close: number;
  /** The next session's open. */
  nextOpen: number;
}

export function marketSession(
  schedule: ScheduleId,
  now: number,
  server?: { open: boolean; opens_at: number | null; closes_at: number },
): MarketSession {
  const open = server ? server.open : isMarketOpen({ schedule }, now);
  return {
    schedule,
    open,
    close: server ? server.closes_at : lastSession(schedule, now).close,
    nextOpen: server?.opens_at ?? nextSession(schedule, now).open,
  };
}

/** The ticket's state and actions, handed to each part of the screen. */
export type Ticket = ReturnType<typeof useStockTrading>;
